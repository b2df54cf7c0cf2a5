import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { dockerAnswers } from "../../server/daemon/docker-probe.ts";
import { stopChild } from "./panel-process.ts";
import { waitUntil } from "./poll.ts";

/** A small image made offline from Debian's static busybox: `sh`, `cat`, `sleep`, … and nothing else. */
export const testImage = "outpost-test/busybox:1";

export interface DockerEngine {
  /** The engine's socket, for the node's dockerSocket setting. */
  socket: string;
  docker: Docker;
  /** Removes what the tests left and stops the engine if this started it. */
  close(): Promise<void>;
}

const systemSocket = "/var/run/docker.sock";

/**
 * A Docker engine for the docker environment's tests: the machine's own when
 * one answers on the usual socket, else a dockerd started here with its data,
 * exec root and socket in a temp folder, no bridge and no iptables rules (the
 * tests run containers on the host network), and its containers' cgroups
 * under a parent of its own. Either way the test image is built offline.
 * Fails loudly when no engine can be had: a docker test must never pass by
 * not running.
 */
export async function startDockerEngine(): Promise<DockerEngine> {
  if (await dockerAnswers(systemSocket)) {
    const docker = new Docker({ socketPath: systemSocket });
    const imported = await importTestImage(docker);
    return {
      socket: systemSocket,
      docker,
      close: async () => {
        if (imported)
          await docker
            .getImage(testImage)
            .remove({ force: true })
            .catch(() => {});
      },
    };
  }
  if (process.getuid?.() !== 0) {
    throw new Error("the docker tests need a running Docker engine, or root to start one (dockerd)");
  }
  const dockerd = ["/usr/sbin/dockerd", "/usr/bin/dockerd"].find((f) => fs.existsSync(f));
  if (!dockerd) throw new Error("dockerd is not installed: run scripts/system-deps.sh (Debian's docker.io)");

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-dockerd-"));
  const socket = path.join(dir, "docker.sock");
  const cgroupParent = `outpost-test-${path.basename(dir)}`;
  const hadDockerCgroup = fs.existsSync("/sys/fs/cgroup/memory/docker");
  // Whatever its roots, dockerd 20.10 keeps its trust key in /etc/docker and plugin sockets in /run/docker,
  // and its containerd makes /opt/containerd and shim sockets in /run/containerd: removed if they are new.
  const fixedDirs = ["/etc/docker", "/run/docker", "/opt/containerd", "/run/containerd"].filter(
    (d) => !fs.existsSync(d),
  );
  let log = "";
  const child: ChildProcess = spawn(
    dockerd,
    [
      `--data-root=${path.join(dir, "data")}`,
      `--exec-root=${path.join(dir, "exec")}`,
      `--pidfile=${path.join(dir, "dockerd.pid")}`,
      `--host=unix://${socket}`,
      "--bridge=none",
      "--iptables=false",
      "--ip-masq=false",
      `--cgroup-parent=/${cgroupParent}`,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (d) => (log += d));
  child.stderr?.on("data", (d) => (log += d));

  const cleanup = async () => {
    await stopChild(child);
    // dockerd stops the containerd it started; if it was killed instead, that containerd is ours to stop.
    const containerdPid = Number(readOr(path.join(dir, "exec", "containerd", "containerd.pid")));
    if (containerdPid > 0 && alive(containerdPid)) {
      process.kill(containerdPid, "SIGTERM");
      await waitUntil(async () => !alive(containerdPid), 10_000).catch(() =>
        process.kill(containerdPid, "SIGKILL"),
      );
    }
    for (const mount of mountsUnder(dir)) execFileSync("umount", ["-l", mount]);
    fs.rmSync(dir, { recursive: true, force: true });
    for (const fixed of fixedDirs) fs.rmSync(fixed, { recursive: true, force: true });
    rmdirIfThere(`/sys/fs/cgroup/${cgroupParent}`); // a cgroup v2 host
    for (const c of cgroupHierarchies()) {
      rmdirIfThere(`/sys/fs/cgroup/${c}/${cgroupParent}`);
      if (!hadDockerCgroup) {
        rmdirIfThere(`/sys/fs/cgroup/${c}/docker/buildkit`);
        rmdirIfThere(`/sys/fs/cgroup/${c}/docker`);
      }
    }
  };

  try {
    await waitUntil(async () => {
      if (child.exitCode !== null) throw new Error(`dockerd exited with ${child.exitCode}`);
      return dockerAnswers(socket);
    }, 30_000);
  } catch (err) {
    await cleanup();
    throw new Error(`dockerd did not start: ${(err as Error).message}\n${log}`);
  }
  const docker = new Docker({ socketPath: socket });
  try {
    await importTestImage(docker);
  } catch (err) {
    await cleanup();
    throw err;
  }
  return {
    socket,
    docker,
    close: async () => {
      for (const c of await docker.listContainers({ all: true }).catch(() => [])) {
        await docker
          .getContainer(c.Id)
          .remove({ force: true })
          .catch(() => {});
      }
      await cleanup();
    },
  };
}

/** Imports the busybox image unless the engine has it; answers whether it did. */
async function importTestImage(docker: Docker): Promise<boolean> {
  const present = await docker
    .getImage(testImage)
    .inspect()
    .then(() => true)
    .catch(() => false);
  if (present) return false;
  const busybox = ["/bin/busybox", "/usr/bin/busybox"].find((f) => fs.existsSync(f));
  if (!busybox)
    throw new Error("busybox is not installed: run scripts/system-deps.sh (Debian's busybox-static)");
  const rootfs = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-busybox-"));
  try {
    fs.mkdirSync(path.join(rootfs, "bin"));
    fs.mkdirSync(path.join(rootfs, "tmp"));
    // As in any image: anyone may write there (mkdir's mode would lose its bits to the umask).
    fs.chmodSync(path.join(rootfs, "tmp"), 0o1777);
    fs.copyFileSync(busybox, path.join(rootfs, "bin", "busybox"));
    fs.chmodSync(path.join(rootfs, "bin", "busybox"), 0o755);
    // `busybox --list` names busybox itself: linking that would replace the binary with a link to itself.
    const applets = execFileSync(busybox, ["--list"], { encoding: "utf8" }).split("\n");
    for (const applet of applets.filter((a) => a && a !== "busybox")) {
      fs.symlinkSync("busybox", path.join(rootfs, "bin", applet));
    }
    const tar = spawn("tar", ["-C", rootfs, "-c", "."], { stdio: ["ignore", "pipe", "inherit"] });
    const [repo, tag] = testImage.split(":");
    const progress = await docker.importImage(tar.stdout, { repo, tag });
    await new Promise((resolve, reject) =>
      docker.modem.followProgress(progress, (err: Error | null) => (err ? reject(err) : resolve(undefined))),
    );
    await docker.getImage(testImage).inspect();
    return true;
  } finally {
    fs.rmSync(rootfs, { recursive: true, force: true });
  }
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return "";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Mount points inside `dir` (overlays, netns), deepest first. */
function mountsUnder(dir: string): string[] {
  return readOr("/proc/self/mountinfo")
    .split("\n")
    .map((line) => line.split(" ")[4])
    .filter((mount) => mount?.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
}

/** The cgroup hierarchies mounted under /sys/fs/cgroup (one per v1 controller, plus named and unified ones). */
function cgroupHierarchies(): string[] {
  try {
    return fs.readdirSync("/sys/fs/cgroup");
  } catch {
    return [];
  }
}

function rmdirIfThere(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // Absent, or still used by another engine: not ours to force.
  }
}
