/**
 * Where the downloading steps look things up. The defaults are the public
 * services the Go panel uses; every one can be replaced, so tests point them
 * at a loopback server and a site can point them at a mirror. `${…}` in a
 * value is filled by the step that uses it.
 */
export interface UpstreamSources {
  /** javadl: Adoptium's asset search (`${version}`, `${os}`, `${arch}`). */
  adoptium: string;
  /** mojangdl: the launcher's version manifest. */
  mojangManifest: string;
  /** fabricdl: the list of Fabric installer builds. */
  fabricInstallers: string;
  /** curseforge: Fabric's ready-made server launcher (`${mcVersion}`, `${version}`, `${installerVersion}`). */
  fabricServerJar: string;
  /** curseforge: Fabric's installer on its Maven (`${installerVersion}`). */
  fabricInstallerJar: string;
  /** forgedl: the latest/recommended Forge build per Minecraft version. */
  forgePromotions: string;
  /** forgedl: the Forge installer on its Maven (`${version}` is `mc-forge`). */
  forgeInstaller: string;
  /** neoforgedl: NeoForge's Maven metadata (the list of versions). */
  neoforgeMetadata: string;
  /** neoforgedl: the NeoForge installer (`${version}`). */
  neoforgeInstaller: string;
  /** curseforge: NeoForge's ServerStarter jar, fetched when a pack leaves no server.jar. */
  neoforgeServerStarter: string;
  /** spongedl: the artifact API base (ends with `/`; the sponge type and path follow). */
  spongeApi: string;
  /** steamgamedl: DepotDownloader's releases on GitHub (the newest with a build for this host is used). */
  depotDownloaderReleases: string;
  /** steamgamedl: Steam's client file server (the `steam_cmd_linux` manifest and its archives). */
  steamClient: string;
  /** curseforge: the CurseForge API base. */
  curseforgeApi: string;
}

export const defaultSources: UpstreamSources = {
  adoptium:
    "https://api.adoptium.net/v3/assets/feature_releases/${version}/ga?architecture=${arch}&image_type=jdk&os=${os}&page=0&page_size=1&project=jdk&sort_method=DEFAULT&sort_order=DESC&vendor=eclipse",
  mojangManifest: "https://launchermeta.mojang.com/mc/game/version_manifest.json",
  fabricInstallers: "https://meta.fabricmc.net/v2/versions/installer",
  fabricServerJar:
    "https://meta.fabricmc.net/v2/versions/loader/${mcVersion}/${version}/${installerVersion}/server/jar",
  fabricInstallerJar:
    "https://maven.fabricmc.net/net/fabricmc/fabric-installer/${installerVersion}/fabric-installer-${installerVersion}.jar",
  forgePromotions: "https://files.minecraftforge.net/net/minecraftforge/forge/promotions_slim.json",
  forgeInstaller:
    "https://maven.minecraftforge.net/net/minecraftforge/forge/${version}/forge-${version}-installer.jar",
  neoforgeMetadata: "https://maven.neoforged.net/releases/net/neoforged/neoforge/maven-metadata.xml",
  neoforgeInstaller:
    "https://maven.neoforged.net/releases/net/neoforged/neoforge/${version}/neoforge-${version}-installer.jar",
  neoforgeServerStarter: "https://github.com/neoforged/ServerStarterJar/releases/download/0.1.25/server.jar",
  spongeApi: "https://dl-api-new.spongepowered.org/api/v2/groups/org.spongepowered/artifacts/",
  depotDownloaderReleases: "https://api.github.com/repos/SteamRE/DepotDownloader/releases?per_page=5",
  steamClient: "https://media.steampowered.com/client/",
  curseforgeApi: "https://api.curseforge.com",
};

/** Fills `${name}` in a source URL; values are URL-encoded path pieces. */
export function fillSource(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? encodeURIComponent(values[name]) : whole,
  );
}
