/** What a node can do, in the reference's shape (§9.3): the daemon answers it, the panel reads it. */
export interface NodeFeatures {
  features: string[];
  environments: string[];
  os: string;
  arch: string;
  version: string;
  /** Why host servers have no sandbox here (then `sandbox` is missing from features). */
  sandboxReason?: string;
}
