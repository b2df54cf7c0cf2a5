import fsp from "node:fs/promises";
import type { OperationOf } from "../../../templates/index.ts";
import { Sandbox } from "../../sandbox/index.ts";
import { findBinary } from "../../servers/host.ts";
import type { StepContext } from "../environment.ts";
import { hostOf, installErrors } from "../errors.ts";
import { getJson } from "../http.ts";
import { serialized } from "../serialize.ts";
import { fillSource } from "../sources.ts";
import { fetchAndExtract } from "../transfers.ts";

interface AdoptiumRelease {
  release_name: string;
  binaries: { package: { link: string } }[];
}

const adoptiumArch: Record<string, string> = { x64: "x64", arm64: "aarch64", arm: "arm" };
const adoptiumOs: Record<string, string> = { win32: "windows", darwin: "mac" };

/**
 * `javadl`: an Eclipse Temurin JDK from Adoptium, unpacked in the node's
 * binaries folder, with `java<version>` and `javac<version>` links there
 * (that folder leads the PATH of every command). Skipped when
 * `java<version>` is already on PATH, exactly as the Go panel does, so a
 * host can provide its own (e.g. a link from java21 to Debian's java).
 */
export async function javadlStep(op: OperationOf<"javadl">, ctx: StepContext): Promise<void> {
  const name = `java${op.version}`;
  if (findBinary(name, ctx.env.PATH)) {
    ctx.notice("javaPresent", { binary: name });
    return;
  }
  const binariesDir = ctx.binariesDir;
  if (!binariesDir)
    throw installErrors.failed(
      ctx.step,
      `${name} is not on PATH and this node has no binaries folder to install it into`,
    );
  await serialized(`javadl:${binariesDir}`, async () => {
    if (findBinary(name, ctx.env.PATH)) return;
    const url = fillSource(ctx.sources.adoptium, {
      version: op.version,
      os: adoptiumOs[process.platform] ?? "linux",
      arch: adoptiumArch[process.arch] ?? "x64",
    });
    ctx.notice("javaLookup", { version: String(op.version), host: hostOf(url) });
    const releases = await getJson<AdoptiumRelease[]>(ctx, url);
    if (!Array.isArray(releases) || releases.length !== 1) {
      throw installErrors.failed(
        ctx.step,
        `expected 1 release of Java ${op.version} from Adoptium, found ${Array.isArray(releases) ? releases.length : "none"}`,
      );
    }
    const [release] = releases;
    const link = release.binaries?.length === 1 ? release.binaries[0].package?.link : undefined;
    if (!link || !release.release_name) {
      throw installErrors.failed(ctx.step, `Adoptium's answer for Java ${op.version} has no single download`);
    }
    await fsp.mkdir(binariesDir, { recursive: true });
    const binaries = new Sandbox(binariesDir);
    const folder = binaries.relative(release.release_name);
    if (!folder || folder.includes("/"))
      throw installErrors.failed(ctx.step, `odd release name ${release.release_name}`);
    await binaries.remove(folder, { recursive: true }).catch(() => {});
    ctx.notice("javaDownloading", { version: String(op.version), release: release.release_name });
    await fetchAndExtract(ctx, link, binaries, "");
    if (!(await binaries.resolve(`${folder}/bin/java`)).stats?.isFile()) {
      throw installErrors.failed(ctx.step, `the download of ${release.release_name} holds no bin/java`);
    }
    await binaries.symlink(`${folder}/bin/java`, name);
    await binaries.symlink(`${folder}/bin/javac`, `javac${op.version}`);
    ctx.notice("javaInstalled", { binary: name });
  });
}
