import { useLoad } from "../../app/useLoad";

// The template module (server/templates) carries the CEL library: it is loaded only by the
// screens that evaluate group conditions or check a definition (the wizard, settings, admin),
// never by the login page or the server list.

export type TemplateKit = typeof import("../../../server/templates/index.ts");

let loading: Promise<TemplateKit> | undefined;

export function loadTemplateKit(): Promise<TemplateKit> {
  loading ??= import("../../../server/templates/index.ts");
  return loading;
}

/** The kit once loaded (undefined meanwhile). */
export function useTemplateKit(): TemplateKit | undefined {
  // A failed chunk load leaves it undefined: the form shows every group (spec §8 leaves this unhandled).
  return useLoad(loadTemplateKit, []).data;
}
