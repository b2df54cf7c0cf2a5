import fs from "node:fs/promises";
import path from "node:path";

/** The file work both drivers share: values in, `key value` lines out, processes killed, groups removed. */

/** The names under `parents` that start with `<prefix>-`. */
export async function namesWithPrefix(parents: string[], prefix: string): Promise<string[]> {
  const names = new Set<string>();
  for (const parent of parents) {
    const entries = await fs.readdir(parent, { withFileTypes: true }).catch(() => []);
    for (const entry of entries)
      if (entry.isDirectory() && entry.name.startsWith(`${prefix}-`)) names.add(entry.name);
  }
  return [...names];
}

export const cfsPeriodMicros = 100_000;

export async function writeValue(dir: string, file: string, value: string | number): Promise<void> {
  await fs.writeFile(path.join(dir, file), String(value));
}

export async function readText(dir: string, file: string): Promise<string> {
  return fs.readFile(path.join(dir, file), "utf8").catch(() => "");
}

/** `key value` lines (memory.stat, cpu.stat, memory.events, memory.oom_control). */
export function keyed(text: string, key: string): number {
  const match = new RegExp(`^${key} (\\d+)$`, "m").exec(text);
  return match ? Number(match[1]) : 0;
}

export async function pidsOf(dir: string): Promise<number[]> {
  return (await readText(dir, "cgroup.procs")).split("\n").filter(Boolean).map(Number);
}

/** SIGKILL to every process listed, until none is left (a pids limit keeps a fork bomb finite). */
export async function killListed(dir: string): Promise<void> {
  for (let round = 0; round < 50; round++) {
    const pids = await pidsOf(dir);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function removeDir(dir: string): Promise<void> {
  // Killed processes leave the group only once the kernel has reaped them, which can take
  // seconds on a loaded host after a fork bomb: keep trying for up to ~15 s, waiting longer each time.
  for (let attempt = 0, wait = 20; ; attempt++, wait = Math.min(wait * 2, 500)) {
    try {
      await fs.rmdir(dir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      if (code !== "EBUSY" || attempt >= 40) throw error;
      await killListed(dir);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
