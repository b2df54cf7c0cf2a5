import fs from "node:fs/promises";
import path from "node:path";

/**
 * A server created with install steps is "not installed" until they succeed once: the node keeps
 * an empty `<id>.not-installed` next to its definition (outside the server's folder, so the game
 * cannot touch it). No marker means installed, which is also what servers from before it get.
 */
export class InstallMarker {
  private readonly file: string;

  constructor(serversDir: string, id: string) {
    this.file = path.join(serversDir, `${id}.not-installed`);
  }

  /** Marks the server not installed; `failure` says why its last install failed (kept for the panel). */
  async set(failure = ""): Promise<void> {
    await fs.writeFile(this.file, failure, { mode: 0o600 });
  }

  /** Why the last install failed, while the server is still not installed and one did. */
  async failure(): Promise<string | undefined> {
    const text = await fs.readFile(this.file, "utf8").catch(() => "");
    return text.trim() || undefined;
  }

  async clear(): Promise<void> {
    await fs.rm(this.file, { force: true });
  }

  async isSet(): Promise<boolean> {
    return fs.access(this.file).then(
      () => true,
      () => false,
    );
  }
}
