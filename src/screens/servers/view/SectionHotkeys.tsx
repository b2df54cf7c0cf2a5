import { useMemo, useRef } from "react";
import { type ContextHotkey, useContextHotkeys } from "../../../app/hotkeyState";
import type { ServerSection } from "../serverSections";

/**
 * The sections' hotkeys (spec §2.2): number keys open the sections shown, in order (the first
 * nine); a section's own key (the console's i) opens it and puts the cursor in its field.
 */
export function SectionHotkeys({
  sections,
  choose,
}: {
  sections: readonly ServerSection[];
  choose: (id: string) => void;
}) {
  const chooseNow = useRef(choose);
  chooseNow.current = choose;
  const ids = sections.map((s) => s.id).join(" ");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `ids` stands for `sections`
  const hotkeys = useMemo<ContextHotkey[]>(
    () => [
      ...sections.slice(0, 9).map((s, i) => ({
        keys: String(i + 1),
        label: s.label,
        run: (e: KeyboardEvent) => {
          e.preventDefault();
          chooseNow.current(s.id);
        },
      })),
      ...sections.flatMap(({ id, hotkey }) =>
        hotkey
          ? [
              {
                keys: hotkey.keys,
                label: hotkey.label,
                run: (e: KeyboardEvent) => {
                  const field = () => document.querySelector<HTMLElement>(hotkey.focus);
                  if (!field()) return;
                  e.preventDefault();
                  chooseNow.current(id);
                  // once the section is shown (a hidden field takes no focus)
                  requestAnimationFrame(() => field()?.focus());
                },
              },
            ]
          : [],
      ),
    ],
    [ids],
  );
  useContextHotkeys(hotkeys);
  return null;
}
