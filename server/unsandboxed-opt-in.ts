/**
 * OUTPOST_UNSANDBOXED takes one value, spelled out, so a typo never turns the
 * sandbox's absence into consent. Read by the panel's config and by
 * `outpost daemon`, so it lives apart from both.
 */
export function unsandboxedAllowed(value: string | undefined): boolean {
  if (value === undefined || value === "") return false;
  if (value === "allow") return true;
  throw new Error(`OUTPOST_UNSANDBOXED must be "allow" or unset, got "${value}"`);
}
