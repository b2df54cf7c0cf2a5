import { ApiError, errorText } from "../../errors.ts";
import { InstallMarker } from "./install-marker.ts";

const notInstalled = () =>
  new ApiError(
    409,
    "ErrServerNotInstalled",
    "the server is not installed yet: install it before starting it",
  );

/**
 * Whether a server's install steps have run once (false: Start is refused) and, while not, why
 * the last try failed; kept on disk by its marker. Only its ManagedServer changes it.
 */
export class InstallState {
  /** False from creation until the install steps first succeed. */
  private done = true;
  /** Why the last install failed, while the server is not installed. */
  private lastFailure?: string;
  private readonly marker: InstallMarker;

  constructor(serversDir: string, id: string) {
    this.marker = new InstallMarker(serversDir, id);
  }

  get installed(): boolean {
    return this.done;
  }

  get failure(): string | undefined {
    return this.done ? undefined : this.lastFailure;
  }

  /** Takes the state its marker kept (a server loaded at start, or one a transfer brought). */
  async read(): Promise<void> {
    this.done = !(await this.marker.isSet());
    if (!this.done) this.lastFailure = await this.marker.failure();
  }

  /** Not installed until the install steps first succeed (a server just created with some). */
  async require(): Promise<void> {
    await this.marker.set();
    this.done = false;
  }

  async succeeded(): Promise<void> {
    await this.marker.clear();
    this.done = true;
    this.lastFailure = undefined;
  }

  /**
   * Never installed and this try failed: the panel says "Install failed" with why, not
   * "not installed yet" (a server installed before keeps running its old files).
   */
  async failed(error: unknown): Promise<void> {
    if (this.done) return;
    this.lastFailure = errorText(error).slice(0, 500);
    await this.marker.set(this.lastFailure).catch(() => undefined);
  }

  /** The marker goes with the server (deleted). */
  async remove(): Promise<void> {
    await this.marker.clear();
  }

  assertInstalled(): void {
    if (!this.done) throw notInstalled();
  }
}
