import { useEffect, useState } from "react";

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
  const [kit, setKit] = useState<TemplateKit>();
  useEffect(() => {
    let live = true;
    loadTemplateKit().then(
      (k) => live && setKit(() => k),
      () => {
        // a failed chunk load: the form shows every group (spec §8 leaves this unhandled)
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return kit;
}
