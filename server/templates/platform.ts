/** A host as Go names it (GOOS, GOARCH), which is what templates compare against. */
export interface Platform {
  os: string;
  arch: string;
}

const osNames: Record<string, string> = { win32: "windows" };
const archNames: Record<string, string> = { x64: "amd64", ia32: "386", ppc64: "ppc64le", mipsel: "mipsle" };

/** Maps Node's `process.platform` / `process.arch` to Go's names; passed in so this stays pure. */
export function goPlatform(nodePlatform: string, nodeArch: string): Platform {
  return { os: osNames[nodePlatform] ?? nodePlatform, arch: archNames[nodeArch] ?? nodeArch };
}
