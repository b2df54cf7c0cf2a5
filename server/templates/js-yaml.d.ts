/** The part of js-yaml (4.x, no bundled types) this module uses. */
declare module "js-yaml" {
  export function load(text: string, options?: { filename?: string; json?: boolean }): unknown;
  export function dump(value: unknown, options?: { lineWidth?: number; noRefs?: boolean }): string;
}
