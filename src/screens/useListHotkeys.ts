import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useMemo } from "react";
import { navigate } from "wouter/use-browser-location";
import { type ContextHotkey, useContextHotkeys } from "../app/hotkeyState";
import { online } from "../offline/network";

// A list screen's hotkeys (spec §2.2, issue 11): j / k move between its entries, o opens the one
// in focus (the first when none is), Shift+N starts a new one. Entries are marked with
// `data-list-entry` (ItemEntry does it); they are links, so Enter opens them too.

export const LIST_ENTRY_ATTR = "data-list-entry";

function entries(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>(`[${LIST_ENTRY_ATTR}]`)).filter(
    (el) => el.offsetParent !== null,
  );
}

function step(e: KeyboardEvent, by: 1 | -1): void {
  const all = entries();
  if (!all.length) return;
  e.preventDefault();
  const at = all.indexOf(document.activeElement as HTMLElement);
  const next = at < 0 ? (by > 0 ? 0 : all.length - 1) : Math.min(all.length - 1, Math.max(0, at + by));
  all[next].focus();
}

function open(e: KeyboardEvent): void {
  const all = entries();
  const focused = all.find((el) => el === document.activeElement) ?? all[0];
  if (!focused) return;
  e.preventDefault();
  focused.click();
}

/** `create`: where Shift+N goes and how the help names it (absent: this user has no "new" here). */
export function useListHotkeys(create?: { label: MessageDescriptor; href: string }): void {
  const label = create?.label;
  const href = create?.href;
  const list = useMemo<ContextHotkey[]>(
    () => [
      { keys: "j", label: msg`Next item`, run: (e) => step(e, 1) },
      { keys: "k", label: msg`Previous item`, run: (e) => step(e, -1) },
      { keys: "o", label: msg`Open`, run: open },
      ...(label
        ? [
            {
              keys: "Shift+N",
              label,
              run: (e: KeyboardEvent) => {
                // Offline the screen's button is disabled with the reason; so is its key.
                if (!href || !online.value) return;
                e.preventDefault();
                navigate(href);
              },
            },
          ]
        : []),
    ],
    [label, href],
  );
  useContextHotkeys(list);
}
