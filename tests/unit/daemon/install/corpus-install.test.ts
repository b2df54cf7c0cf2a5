import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runOperations } from "../../../../server/daemon/install/index.ts";
import {
  type Operation,
  parseTemplate,
  type Template,
  type VariableValue,
  variableValues,
} from "../../../../server/templates/index.ts";
import { v3Folder } from "../../templates/corpus.ts";
import {
  fixtureServerForFile,
  rawTar,
  scratchEachTest,
  serverContext,
  sha1,
  tarGz,
  zipOf,
} from "./support.ts";

/**
 * Real install lists of corpus templates, run as they are written. Only the
 * internet is replaced: each `download` URL is pointed at the loopback
 * fixture server under its original host and path (here, in the test, not
 * in product code), and the downloaders' public services are swapped for
 * the same server through the executor's sources.
 */
const server = fixtureServerForFile();
const s = scratchEachTest();

function corpusTemplate(name: string): Template {
  const parsed = parseTemplate(
    JSON.parse(fs.readFileSync(path.join(v3Folder, name, `${name}.json`), "utf8")),
  );
  if (!parsed.ok) throw new Error(`${name} does not parse: ${JSON.stringify(parsed.problems)}`);
  return parsed.template;
}

/** https://host/path → fixture/host/path in every download step. */
function throughFixture(ops: Operation[]): Operation[] {
  return ops.map((op) =>
    op.type === "download"
      ? { ...op, files: op.files.map((url) => url.replace(/^https?:\/\//, `${server.url}/`)) }
      : op,
  );
}

async function install(name: string, overrides: Record<string, VariableValue> = {}) {
  const template = corpusTemplate(name);
  const variables = { ...variableValues(template.data), ...overrides };
  return runOperations(
    throughFixture(template.install),
    serverContext(s.root, variables),
    s.env({
      binariesDir: s.binaries,
      cacheDir: s.cache,
      sources: {
        adoptium: `${server.url}/adoptium/\${version}`,
        mojangManifest: `${server.url}/mojang/version_manifest.json`,
      },
    }),
  );
}

const read = (file: string) => fs.readFileSync(path.join(s.root, file), "utf8");
const exists = (file: string) => fs.existsSync(path.join(s.root, file));
const executable = (file: string) => (fs.statSync(path.join(s.root, file)).mode & 0o111) !== 0;

beforeAll(async () => {
  const url = server.url;
  const json = (value: unknown) => ({ body: JSON.stringify(value) });
  const vanillaJar = "minecraft server 1.21.4";
  const fakeJava = (v: string) => ({
    body: tarGz([{ path: `jdk-${v}+7/bin/java`, body: `#!/bin/sh\necho java ${v} "$@"\n`, mode: 0o755 }]),
  });
  const routes: Record<string, Parameters<typeof server.routes.set>[1]> = {
    // terraria-vanilla
    "/terraria.org/api/download/pc-dedicated-server/terraria-server-1449.zip": {
      body: await zipOf([
        { name: "1449/Linux/TerrariaServer", body: "#!/bin/sh\necho terraria\n" },
        { name: "1449/Linux/TerrariaServer.bin.x86_64", body: "ELF-ish" },
        { name: "1449/Linux/lib64/libsteam_api.so", body: "lib" },
        { name: "1449/Windows/TerrariaServer.exe", body: "exe" },
      ]),
    },
    // terraria-tshock
    "/dotnetcli.azureedge.net/dotnet/Runtime/6.0.14/dotnet-runtime-6.0.14-linux-x64.tar.gz": {
      body: tarGz([
        { path: "./", type: "Directory" },
        { path: "./dotnet", body: "#!/bin/sh\necho dotnet 6.0.14\n", mode: 0o755 },
        { path: "./shared/Microsoft.NETCore.App/6.0.14/System.Runtime.dll", body: "dll" },
      ]),
    },
    "/github.com/Pryaxis/TShock/releases/download/v5.1.3/TShock-5.1.3-for-Terraria-1.4.4.9-linux-x64-Release.zip":
      {
        body: await zipOf([
          {
            name: "TShock-Beta-linux-x64-Release.tar",
            body: rawTar([
              { path: "TShock.Server", body: "#!/bin/sh\necho tshock\n", mode: 0o755 },
              { path: "ServerPlugins/TShockAPI.dll", body: "plugin" },
            ]),
          },
        ]),
      },
    // minecraft (vanilla and paper) and minecraft-velocity
    "/adoptium/21": json([
      { release_name: "jdk-21+7", binaries: [{ package: { link: `${url}/jdk/21.tar.gz` } }] },
    ]),
    "/adoptium/17": json([
      { release_name: "jdk-17+7", binaries: [{ package: { link: `${url}/jdk/17.tar.gz` } }] },
    ]),
    "/jdk/21.tar.gz": fakeJava("21"),
    "/jdk/17.tar.gz": fakeJava("17"),
    "/mojang/version_manifest.json": json({
      latest: { release: "1.21.4", snapshot: "25w01a" },
      versions: [{ id: "1.21.4", url: `${url}/mojang/1.21.4.json` }],
    }),
    "/mojang/1.21.4.json": json({
      downloads: { server: { url: `${url}/mojang/server.jar`, sha1: sha1(vanillaJar) } },
    }),
    "/mojang/server.jar": { body: vanillaJar },
    "/api.papermc.io/v2/projects/paper/versions/1.21.4/builds/478/downloads/paper-1.21.4-478.jar": {
      body: "paper 1.21.4-478",
    },
    "/api.papermc.io/v2/projects/velocity/versions/3.1.2-SNAPSHOT/builds/195/downloads/velocity-3.1.2-SNAPSHOT-195.jar":
      { body: "velocity 3.1.2" },
  };
  for (const [route, value] of Object.entries(routes)) server.routes.set(route, value);
});

describe("corpus install lists, run for real", () => {
  it("terraria-vanilla: download, extract, then its rm/mkdir/cp/chmod commands", async () => {
    const result = await install("terraria-vanilla");
    expect(result).toMatchObject({ ran: 3, skipped: 0 });
    expect(read("server/TerrariaServer")).toBe("#!/bin/sh\necho terraria\n");
    expect(executable("server/TerrariaServer")).toBe(true);
    expect(executable("server/TerrariaServer.bin.x86_64")).toBe(true);
    expect(read("server/lib64/libsteam_api.so")).toBe("lib");
    expect(fs.statSync(path.join(s.root, "worlds")).isDirectory()).toBe(true);
    expect(exists("terraria-server-1449.zip")).toBe(false);
    expect(exists("1449")).toBe(false);
    expect(server.hits).toEqual(["/terraria.org/api/download/pc-dedicated-server/terraria-server-1449.zip"]);
    expect(s.text()).toContain("[DAEMON] Executing: cp -r ./1449/Linux/. ./server");
  });

  it("terraria-tshock on host: the .NET runtime tar.gz, the TShock zip, and the tar inside it", async () => {
    const result = await install("terraria-tshock");
    expect(result).toMatchObject({ ran: 8, skipped: 0 });
    expect(read("dotnet/dotnet")).toBe("#!/bin/sh\necho dotnet 6.0.14\n");
    expect(executable("dotnet/dotnet")).toBe(true);
    expect(read("dotnet/shared/Microsoft.NETCore.App/6.0.14/System.Runtime.dll")).toBe("dll");
    expect(executable("TShock.Server")).toBe(true);
    expect(read("ServerPlugins/TShockAPI.dll")).toBe("plugin");
    expect(fs.statSync(path.join(s.root, "worlds")).isDirectory()).toBe(true);
    expect(exists("TShock-Beta-linux-x64-Release.tar")).toBe(false);
    expect(exists("TShock-5.1.3-for-Terraria-1.4.4.9-linux-x64-Release.zip")).toBe(false);
  });

  it("minecraft, vanilla: javadl, mojangdl, the properties and the EULA; the other launchers' steps skipped", async () => {
    const result = await install("minecraft", { eula: true });
    expect(result.ran).toBe(4);
    expect(result.skipped).toBe(14);
    expect(fs.readlinkSync(path.join(s.binaries, "java21"))).toBe("jdk-21+7/bin/java");
    expect(read("server.jar")).toBe("minecraft server 1.21.4");
    expect(read("server.properties")).toBe(
      "server-ip=0.0.0.0\nserver-port=25565\nmotd=A Minecraft Server\\n\\u00A79 hosted on PufferPanel\n",
    );
    expect(read("eula.txt")).toBe("eula=true");
  });

  it("minecraft, again: an existing server.properties is kept (if: !file_exists)", async () => {
    fs.writeFileSync(path.join(s.root, "server.properties"), "server-port=30000\n");
    await install("minecraft", { eula: false });
    expect(read("server.properties")).toBe("server-port=30000\n");
    expect(read("eula.txt")).toBe("eula=false");
  });

  it("minecraft with paper: the build downloaded and moved to server.jar by its glob", async () => {
    const result = await install("minecraft", { modlauncher: "paper", version: "1.21.4" });
    expect(result.ran).toBe(5);
    expect(read("server.jar")).toBe("paper 1.21.4-478");
    expect(exists("paper-1.21.4-478.jar")).toBe(false);
  });

  it("minecraft-velocity: Java 17, the proxy jar, and its move", async () => {
    await install("minecraft-velocity");
    expect(fs.readlinkSync(path.join(s.binaries, "java17"))).toBe("jdk-17+7/bin/java");
    expect(read("velocity.jar")).toBe("velocity 3.1.2");
  });
});
