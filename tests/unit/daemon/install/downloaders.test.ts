import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type InstallEnvironment,
  runOperations,
  type UpstreamSources,
} from "../../../../server/daemon/install/index.ts";
import type { Operation } from "../../../../server/templates/index.ts";
import {
  closedPort,
  fixtureServerForFile,
  installFailure,
  scratchEachTest,
  serverContext,
  sha1,
  tarGz,
  zipOf,
} from "./support.ts";

/**
 * The downloaders against a loopback server that plays Adoptium, Mojang,
 * Fabric, Forge, NeoForge, Sponge, GitHub + Steam and CurseForge with
 * fixture metadata. What they fetch is then checked on disk.
 */
const server = fixtureServerForFile();
const s = scratchEachTest();
let sources: Partial<UpstreamSources>;

const fakeDepotDownloader = `#!/bin/sh
dir=""; manifest=0; app=""
while [ $# -gt 0 ]; do
  case "$1" in
    -dir) dir="$2"; shift ;;
    -app) app="$2"; shift ;;
    -manifest-only) manifest=1 ;;
  esac
  shift
done
echo "fake DepotDownloader app=$app manifest=$manifest term=$TERM"
if [ "$manifest" = 1 ]; then
  printf 'Content Manifest for Depot 1\\n\\nManifest ID / date     : 1 / today\\nTotal number of files  : 2\\nTotal number of chunks : 2\\nTotal bytes on disk    : 10\\nTotal bytes compressed : 10\\n\\n          Size Chunks File SHA                                 Flags Name\\n             7      1 aaaa                                         0 game server\\n             5      1 bbbb                                         4 lib/data.bin\\n' > "$dir/manifest_1_1.txt"
  exit 0
fi
mkdir -p "$dir/lib"
echo server > "$dir/game server"
echo data > "$dir/lib/data.bin"
chmod 644 "$dir/game server" "$dir/lib/data.bin"
`;

beforeAll(async () => {
  const url = server.url;
  const json = (value: unknown) => ({
    body: JSON.stringify(value),
    headers: { "content-type": "application/json" },
  });
  const serverJar = "vanilla server 1.99";
  const routes: Record<string, Parameters<typeof server.routes.set>[1]> = {
    "/adoptium/99": json([
      { release_name: "jdk-99+1", binaries: [{ package: { link: `${url}/dl/jdk-99.tar.gz` } }] },
    ]),
    "/dl/jdk-99.tar.gz": {
      body: tarGz([
        { path: "jdk-99+1/bin/java", body: '#!/bin/sh\necho "fake-jdk-99 $*"\n', mode: 0o755 },
        { path: "jdk-99+1/bin/javac", body: "#!/bin/sh\necho javac\n", mode: 0o755 },
        { path: "jdk-99+1/release", body: 'JAVA_VERSION="99"\n' },
      ]),
    },
    "/adoptium/98": json([]),
    "/mojang/manifest.json": json({
      latest: { release: "1.99", snapshot: "1.99-pre" },
      versions: [
        { id: "1.99", url: `${url}/mojang/1.99.json` },
        { id: "1.98", url: `${url}/mojang/1.98.json` },
      ],
    }),
    "/mojang/1.99.json": json({
      downloads: { server: { url: `${url}/dl/server-1.99.jar`, sha1: sha1(serverJar) } },
    }),
    "/mojang/1.98.json": json({
      downloads: { server: { url: `${url}/dl/server-1.99.jar`, sha1: sha1("other") } },
    }),
    "/dl/server-1.99.jar": { body: serverJar },
    "/fabric/installers": json([
      { url: `${url}/maven/net/fabricmc/fabric-installer/1.0.0/fabric-installer-1.0.0.jar` },
    ]),
    "/maven/net/fabricmc/fabric-installer/1.0.0/fabric-installer-1.0.0.jar": { body: "fabric installer jar" },
    "/forge/promotions.json": json({ promos: { "1.20.1-latest": "47.2.0", "1.20.1-recommended": "47.1.0" } }),
    "/forge/maven/1.20.1-47.2.0/forge-1.20.1-47.2.0-installer.jar": { body: "forge installer 47.2.0" },
    "/neoforge/maven-metadata.xml": {
      body: "<metadata><versioning><versions><version>20.4.9</version><version>20.4.10-beta</version><version>20.2.3</version><version>21.0.1</version></versions></versioning></metadata>",
    },
    "/neoforge/20.4.10-beta/neoforge-20.4.10-beta-installer.jar": { body: "neoforge installer" },
    "/sponge/spongevanilla/versions": json({ artifacts: { "1.20.1-11.0.0": {} } }),
    "/sponge/spongevanilla/versions/1.20.1-11.0.0": json({
      assets: [
        { classifier: "sources", extension: "jar", downloadUrl: `${url}/dl/sponge-sources.jar` },
        { classifier: "", extension: "jar", downloadUrl: `${url}/dl/spongevanilla.jar` },
      ],
    }),
    "/dl/spongevanilla.jar": { body: "sponge vanilla" },
    "/github/releases": json([
      {
        assets: [
          { name: "DepotDownloader-windows-x64.zip", browser_download_url: `${url}/dl/dd-windows.zip` },
        ],
      },
      {
        assets: [
          { name: "DepotDownloader-linux-arm64.zip", browser_download_url: `${url}/dl/dd-arm.zip` },
          { name: "DepotDownloader-linux-x64.zip", browser_download_url: `${url}/dl/dd.zip` },
        ],
      },
    ]),
    "/dl/dd.zip": {
      body: await zipOf([{ name: "DepotDownloader", body: fakeDepotDownloader, mode: 0o100644 }]),
    },
    "/steam/steam_cmd_linux": { body: '"bins_linux" { "file" "steamcmd_bins_linux.zip.5f2a9c" }' },
    "/steam/steamcmd_bins_linux.zip.5f2a9c": {
      body: await zipOf([
        { name: "linux32/steamclient.so", body: "32" },
        { name: "linux64/steamclient.so", body: "64" },
      ]),
    },
    "/cf/v1/mods/123": json({
      data: {
        allowModDistribution: true,
        latestFiles: [
          {
            id: 1,
            fileDate: "2024-01-01T00:00:00Z",
            fileStatus: 4,
            releaseType: 1,
            isServerPack: false,
            serverPackFileId: 2,
          },
          { id: 7, fileDate: "2025-01-01T00:00:00Z", fileStatus: 4, releaseType: 2, isServerPack: true },
        ],
      },
    }),
    "/cf/v1/mods/123/files/2": json({
      data: {
        id: 2,
        isServerPack: true,
        fileName: "pack-server.zip",
        downloadUrl: `${url}/cdn/files/2/pack-server.zip`,
      },
    }),
    "/cdn/files/2/pack-server.zip": {
      body: await zipOf([
        { name: "Pack Server/", directory: true },
        {
          name: "Pack Server/variables.txt",
          body: 'MODLOADER=Fabric\nMINECRAFT_VERSION=1.20.1\nMODLOADER_VERSION="0.15.0"\nFABRIC_INSTALLER_VERSION=1.0.0\n',
        },
        { name: "Pack Server/mods/a.jar", body: "mod a" },
        { name: "Pack Server/config/x.cfg", body: "x=1" },
      ]),
    },
    "/fabricmeta/1.20.1/0.15.0/1.0.0/server.jar": { body: "fabric server launcher" },
    "/cf/v1/mods/456": json({ data: { allowModDistribution: true, latestFiles: [] } }),
    "/cf/v1/mods/456/files/9": json({
      data: { id: 9, isServerPack: true, downloadUrl: `${url}/cdn/files/9/forge-pack.zip` },
    }),
    "/cdn/files/9/forge-pack.zip": {
      body: await zipOf([
        { name: "mods/b.jar", body: "mod b" },
        { name: "forge-1.20.1-47.2.0-installer.jar", body: "installer" },
      ]),
    },
    "/dl/serverstarter.jar": { body: "server starter" },
    "/cf/v1/mods/789": json({ data: { allowModDistribution: false } }),
  };
  for (const [route, value] of Object.entries(routes)) server.routes.set(route, value);
  sources = {
    adoptium: `${url}/adoptium/\${version}?os=\${os}&arch=\${arch}`,
    mojangManifest: `${url}/mojang/manifest.json`,
    fabricInstallers: `${url}/fabric/installers`,
    fabricServerJar: `${url}/fabricmeta/\${mcVersion}/\${version}/\${installerVersion}/server.jar`,
    fabricInstallerJar: `${url}/maven/fabric-installer-\${installerVersion}.jar`,
    forgePromotions: `${url}/forge/promotions.json`,
    forgeInstaller: `${url}/forge/maven/\${version}/forge-\${version}-installer.jar`,
    neoforgeMetadata: `${url}/neoforge/maven-metadata.xml`,
    neoforgeInstaller: `${url}/neoforge/\${version}/neoforge-\${version}-installer.jar`,
    neoforgeServerStarter: `${url}/dl/serverstarter.jar`,
    spongeApi: `${url}/sponge/`,
    depotDownloaderReleases: `${url}/github/releases`,
    steamClient: `${url}/steam/`,
    curseforgeApi: `${url}/cf`,
  };
});

const env = (extra: Partial<InstallEnvironment> = {}) =>
  s.env({ sources, binariesDir: s.binaries, cacheDir: s.cache, ...extra });
const run = (ops: Operation[], extra: Partial<InstallEnvironment> = {}, variables = {}) =>
  runOperations(ops, serverContext(s.root, variables), env(extra));
const read = (file: string) => fs.readFileSync(path.join(s.root, file), "utf8");

describe("javadl", () => {
  it("installs a JDK into the binaries folder as java<version>, which commands then find", async () => {
    await run([
      { type: "javadl", version: "99" },
      { type: "command", commands: ["java99 -jar server.jar nogui"] },
    ]);
    expect(fs.readlinkSync(path.join(s.binaries, "java99"))).toBe("jdk-99+1/bin/java");
    expect(fs.readlinkSync(path.join(s.binaries, "javac99"))).toBe("jdk-99+1/bin/javac");
    expect(s.text()).toContain("fake-jdk-99 -jar server.jar nogui");
    expect(server.hits).toContain(
      `/adoptium/99?os=linux&arch=${process.arch === "arm64" ? "aarch64" : "x64"}`,
    );
  });

  it("is skipped when java<version> is already on PATH, as in the Go panel", async () => {
    await run([{ type: "javadl", version: "99" }]);
    server.hits.length = 0;
    await run([{ type: "javadl", version: "99" }]);
    expect(server.hits).toEqual([]);
    expect(s.text()).toContain("[DAEMON] java99 is already installed");
  });

  it("fails when Adoptium has no such release", async () => {
    const error = await installFailure(run([{ type: "javadl", version: "98" }]));
    expect(error.message).toBe("javadl: expected 1 release of Java 98 from Adoptium, found 0");
  });
});

describe("mojangdl", () => {
  it("fetches the latest release's server jar and checks its SHA-1", async () => {
    await run([{ type: "mojangdl", version: "latest", target: "server.jar" }]);
    expect(read("server.jar")).toBe("vanilla server 1.99");
    expect(s.text()).toContain("Version 1.99 json located");
  });

  it("refuses a jar whose SHA-1 does not match, leaving no file", async () => {
    const error = await installFailure(run([{ type: "mojangdl", version: "1.98", target: "server.jar" }]));
    expect(error.message).toContain("mojangdl: the server jar's SHA-1 is");
    expect(fs.existsSync(path.join(s.root, "server.jar"))).toBe(false);
  });

  it("fails on a version the manifest does not list", async () => {
    const error = await installFailure(run([{ type: "mojangdl", version: "0.1", target: "server.jar" }]));
    expect(error.message).toBe("mojangdl: Minecraft version 0.1 is not in Mojang's version manifest");
  });
});

describe("fabricdl, forgedl, neoforgedl, spongedl", () => {
  it("fetches the Fabric installer once into the node's cache", async () => {
    await run([{ type: "fabricdl" }]);
    expect(read("fabric-installer.jar")).toBe("fabric installer jar");
    server.hits.length = 0;
    fs.rmSync(path.join(s.root, "fabric-installer.jar"));
    await run([{ type: "fabricdl" }]);
    expect(read("fabric-installer.jar")).toBe("fabric installer jar");
    expect(server.hits).toEqual(["/fabric/installers"]);
  });

  it("resolves the latest Forge for a Minecraft version and reports it through outputVariable", async () => {
    const result = await run(
      [
        {
          type: "forgedl",
          version: "${forgebuild}",
          minecraftVersion: "${version}",
          target: "installer.jar",
          outputVariable: "resolvedForgeVersion",
        },
        { type: "writefile", target: "version.txt", text: "${resolvedForgeVersion}" },
      ],
      {},
      { forgebuild: "", version: "1.20.1", resolvedForgeVersion: "" },
    );
    expect(read("installer.jar")).toBe("forge installer 47.2.0");
    expect(read("version.txt")).toBe("1.20.1-47.2.0");
    expect(result.variables).toEqual({ resolvedForgeVersion: "1.20.1-47.2.0" });
  });

  it("fails forgedl for a Minecraft version Forge does not have", async () => {
    const error = await installFailure(
      run([{ type: "forgedl", minecraftVersion: "1.2.3", target: "installer.jar" }]),
    );
    expect(error.message).toBe("forgedl: no Forge build is available for Minecraft 1.2.3");
  });

  it("picks the newest NeoForge build for a Minecraft version", async () => {
    const result = await run([
      { type: "neoforgedl", minecraftVersion: "1.20.4", target: "installer.jar", outputVariable: "neo" },
    ]);
    expect(read("installer.jar")).toBe("neoforge installer");
    expect(result.variables).toEqual({ neo: "20.4.10-beta" });
  });

  it("fetches SpongeVanilla as server.jar", async () => {
    await run([{ type: "spongedl", spongeType: "spongevanilla", minecraftVersion: "1.20.1" }]);
    expect(read("server.jar")).toBe("sponge vanilla");
    expect(server.hits).toContain("/sponge/spongevanilla/versions?limit=1&tags=minecraft%3A1.20.1");
  });
});

describe("steamgamedl", () => {
  it("fetches DepotDownloader once, Steam's runtime, runs both passes and marks plain files executable", async () => {
    await run([{ type: "steamgamedl", appId: "896660", username: "player", password: "hunter2" }]);
    const text = s.text();
    expect(text).toContain("fake DepotDownloader app=896660 manifest=1 term=pufferpanel");
    expect(text).toContain("fake DepotDownloader app=896660 manifest=0 term=pufferpanel");
    expect(text).not.toContain("hunter2");
    expect(read("game server")).toBe("server\n");
    expect(fs.statSync(path.join(s.root, "game server")).mode & 0o111).not.toBe(0);
    expect(fs.statSync(path.join(s.root, "lib/data.bin")).mode & 0o111).toBe(0);
    expect(read(".steam/sdk32/steamclient.so")).toBe("32");
    expect(read(".steam/sdk64/steamclient.so")).toBe("64");
    expect(fs.statSync(path.join(s.binaries, "depotdownloader/DepotDownloader")).mode & 0o777).toBe(0o755);

    server.hits.length = 0;
    await run([{ type: "steamgamedl", appId: "896660" }]);
    expect(server.hits).not.toContain("/github/releases");
  });
});

describe("curseforge", () => {
  it("installs a Fabric server pack: API with the key, pack unpacked without its top folder, launcher fetched", async () => {
    await run([{ type: "curseforge", projectId: "123", fileId: "" }], { curseforgeApiKey: "test-key" });
    expect(server.headers.get("/cf/v1/mods/123")?.["x-api-key"]).toBe("test-key");
    expect(read("mods/a.jar")).toBe("mod a");
    expect(read("config/x.cfg")).toBe("x=1");
    expect(read("server.jar")).toBe("fabric server launcher");
    expect(fs.existsSync(path.join(s.root, "Pack Server"))).toBe(false);
    expect(s.text()).toContain("Pack installed and should be good to go!");
  });

  it("runs a Forge installer that comes in the pack with the template's java, then fetches ServerStarter", async () => {
    fs.mkdirSync(s.binaries, { recursive: true });
    fs.writeFileSync(
      path.join(s.binaries, "java17"),
      '#!/bin/sh\necho "installer run: $*"\n[ "$3" = "--installServer" ] || exit 9\nmkdir -p libraries/net/minecraftforge/forge/1.20.1-47.2.0\ntouch libraries/net/minecraftforge/forge/1.20.1-47.2.0/unix_args.txt "$2.log"\n',
      { mode: 0o755 },
    );
    const result = await run(
      [
        { type: "curseforge", projectId: "456", fileId: "9", java: "java${javaversion}" },
        { type: "resolveforgeversion", outputVariable: "resolvedForgeVersion" },
      ],
      { curseforgeApiKey: "k" },
      { javaversion: "17" },
    );
    expect(s.text()).toContain("installer run: -jar forge-1.20.1-47.2.0-installer.jar --installServer");
    expect(fs.existsSync(path.join(s.root, "forge-1.20.1-47.2.0-installer.jar"))).toBe(false);
    expect(fs.existsSync(path.join(s.root, "forge-1.20.1-47.2.0-installer.jar.log"))).toBe(false);
    expect(read("server.jar")).toBe("server starter");
    expect(read("mods/b.jar")).toBe("mod b");
    expect(result.variables).toEqual({ resolvedForgeVersion: "1.20.1-47.2.0" });
  });

  it("fails without an API key, and for a project that forbids downloads", async () => {
    expect((await installFailure(run([{ type: "curseforge", projectId: "123" }]))).message).toBe(
      "curseforge: this node has no CurseForge API key, which the CurseForge API requires",
    );
    expect(
      (await installFailure(run([{ type: "curseforge", projectId: "789" }], { curseforgeApiKey: "k" })))
        .message,
    ).toContain("does not allow its files to be downloaded");
  });
});

describe("without the internet", () => {
  const needsNetwork: [string, Operation][] = [
    ["javadl", { type: "javadl", version: "21" }],
    ["mojangdl", { type: "mojangdl", version: "latest", target: "server.jar" }],
    ["fabricdl", { type: "fabricdl" }],
    ["forgedl", { type: "forgedl", minecraftVersion: "1.20.1", target: "installer.jar" }],
    ["neoforgedl", { type: "neoforgedl", minecraftVersion: "1.20.4", target: "installer.jar" }],
    ["spongedl", { type: "spongedl", spongeType: "spongevanilla" }],
    ["steamgamedl", { type: "steamgamedl", appId: "896660" }],
    ["curseforge", { type: "curseforge", projectId: "123" }],
    [
      "download",
      { type: "download", files: ["https://terraria.org/api/download/pc-dedicated-server/x.zip"] },
    ],
  ];

  it.each(needsNetwork)("%s fails naming the public host it could not reach", async (type, op) => {
    // The real default sources, and a network that resolves no name (as on an offline node).
    const offline: typeof fetch = async (input) => {
      throw new TypeError("fetch failed", {
        cause: Object.assign(new Error(`getaddrinfo ENOTFOUND ${new URL(String(input)).hostname}`), {
          code: "ENOTFOUND",
        }),
      });
    };
    const error = await installFailure(
      runOperations(
        [op],
        serverContext(s.root),
        s.env({ fetch: offline, binariesDir: s.binaries, curseforgeApiKey: "k" }),
      ),
    );
    const expectedHost = {
      javadl: "api.adoptium.net",
      mojangdl: "launchermeta.mojang.com",
      fabricdl: "meta.fabricmc.net",
      forgedl: "files.minecraftforge.net",
      neoforgedl: "maven.neoforged.net",
      spongedl: "dl-api-new.spongepowered.org",
      steamgamedl: "api.github.com",
      curseforge: "api.curseforge.com",
      download: "terraria.org",
    }[type];
    expect(error.message).toBe(`${type}: could not reach ${expectedHost} (ENOTFOUND)`);
    expect(error.metadata).toMatchObject({ operation: type, host: expectedHost });
    expect(fs.readdirSync(s.root)).toEqual([]);
  });

  it("fails naming a mirror that refuses connections", async () => {
    const port = await closedPort();
    const error = await installFailure(
      run([{ type: "mojangdl", version: "latest", target: "server.jar" }], {
        sources: { mojangManifest: `http://127.0.0.1:${port}/manifest.json` },
      }),
    );
    expect(error.message).toBe(`mojangdl: could not reach 127.0.0.1:${port} (ECONNREFUSED)`);
  });
});
