import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { type KeyboardEvent, useEffect, useRef } from "react";
import type { ServerSection } from "../serverSections";

/** Marks the sides of a strip that scrolls sideways where tabs lie out of sight (CSS fades them). */
function markHidden(strip: HTMLElement) {
  const first = strip.firstElementChild?.getBoundingClientRect();
  const last = strip.lastElementChild?.getBoundingClientRect();
  if (!first || !last) return;
  const box = strip.getBoundingClientRect();
  // Either end may be the left one (right to left, the first tab is on the right).
  const left = Math.min(first.left, last.left) < box.left - 1;
  const right = Math.max(first.right, last.right) > box.right + 1;
  strip.toggleAttribute("data-more-left", left);
  strip.toggleAttribute("data-more-right", right);
}

/** Scrolls the strip (sideways only) so the chosen tab is in sight, clear of the faded edges. */
function reveal(strip: HTMLElement) {
  const shown = strip.querySelector<HTMLElement>('[aria-selected="true"]');
  if (shown) {
    // Not scrollIntoView: it would move the page too, and phones fire resize as their address
    // bar comes and goes.
    const tabBox = shown.getBoundingClientRect();
    const stripBox = strip.getBoundingClientRect();
    const margin = 40;
    if (tabBox.left < stripBox.left + margin) strip.scrollLeft -= stripBox.left + margin - tabBox.left;
    else if (tabBox.right > stripBox.right - margin)
      strip.scrollLeft += tabBox.right - stripBox.right + margin;
  }
  markHidden(strip);
}

/**
 * The server view's tab strip (an ARIA tablist). Wide, the tabs wrap onto more rows; on a phone
 * they stay in one row that scrolls sideways, the open section's tab kept in sight.
 */
export function SectionTabs({
  sections,
  active,
  choose,
}: {
  sections: readonly ServerSection[];
  active: string | undefined;
  choose: (id: string) => void;
}) {
  const strip = useRef<HTMLDivElement>(null);

  // A link to #files opens a section whose tab may be off to the side: bring it in.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again when another tab is chosen
  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    reveal(el);
    const onResize = () => reveal(el);
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, [active]);

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    // Arrows follow the strip's direction: right to left, ArrowLeft is the next tab.
    const rtl = strip.current ? getComputedStyle(strip.current).direction === "rtl" : false;
    const forward = rtl ? "ArrowLeft" : "ArrowRight";
    const back = rtl ? "ArrowRight" : "ArrowLeft";
    let next: number;
    if (e.key === forward) next = (index + 1) % sections.length;
    else if (e.key === back) next = (index - 1 + sections.length) % sections.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = sections.length - 1;
    else return;
    e.preventDefault();
    const id = sections[next].id;
    choose(id);
    // The effect above scrolls the strip (sideways only).
    document.getElementById(`tab-${id}`)?.focus({ preventScroll: true });
  };

  return (
    <div
      ref={strip}
      className="server-tabs"
      role="tablist"
      aria-label={t`Server sections`}
      onScroll={(e) => markHidden(e.currentTarget)}
      data-testid="server-tabs"
    >
      {sections.map((s, index) => (
        <button
          key={s.id}
          type="button"
          role="tab"
          id={`tab-${s.id}`}
          aria-selected={s.id === active}
          aria-controls={`section-${s.id}`}
          tabIndex={s.id === active ? 0 : -1}
          className="server-tab"
          onClick={() => choose(s.id)}
          onKeyDown={(e) => onKeyDown(e, index)}
        >
          {i18n._(s.label)}
        </button>
      ))}
    </div>
  );
}
