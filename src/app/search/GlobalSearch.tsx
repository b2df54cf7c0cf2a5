import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import { Icon } from "../../components/icons";
import { reportSessionEnd } from "../background";
import { SEARCH_INPUT_ID } from "../globalHotkeys";
import { type SearchGroup, type SearchHit, searchGroups } from "./searchGroups";
import { searchHandoff } from "./searchHandoff";
import "./search.css";

/** Typing pauses this long before searching; the results hide this long after the box loses focus (spec §9). */
export const SEARCH_PAUSE_MS = 500;
export const HIDE_AFTER_BLUR_MS = 500;

type Found = { group: SearchGroup; hits: SearchHit[] }[];

/**
 * The top bar's search (spec §2.3): groups from the search table, each searched only when the
 * user may see it; arrows move through every hit with wrap-around, Enter opens, Escape clears.
 */
export default function GlobalSearch() {
  const { i18n } = useLingui();
  const [text, setText] = useState(searchHandoff.text);
  const [found, setFound] = useState<Found>();
  const [searching, setSearching] = useState(false);
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState(0);
  const [, navigate] = useLocation();
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const listId = `${SEARCH_INPUT_ID}-results`;

  // A search starts once typing pauses; a newer one makes the older answer stale.
  useEffect(() => {
    const query = text.trim();
    if (!query) {
      setFound(undefined);
      setSearching(false);
      return;
    }
    const aborter = new AbortController();
    const timer = setTimeout(async () => {
      setSearching(true);
      const opts = { exempt: true as const, signal: aborter.signal };
      const groups = searchGroups.filter((g) => g.visible());
      const answers = await Promise.all(
        groups.map((group) =>
          group.search(query, opts).then(
            (hits) => ({ group, hits }),
            (err) => {
              reportSessionEnd(err);
              return { group, hits: [] };
            },
          ),
        ),
      );
      if (aborter.signal.aborted) return;
      setFound(answers.filter((a) => a.hits.length > 0));
      setSelected(0);
      setSearching(false);
      setOpen(true);
    }, SEARCH_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      aborter.abort();
    };
  }, [text]);

  // Took over from the plain box shown while this code loaded: keep its focus (and text).
  useEffect(() => {
    if (searchHandoff.focused) document.getElementById(SEARCH_INPUT_ID)?.focus();
    searchHandoff.focused = false;
    searchHandoff.text = "";
    return () => clearTimeout(hideTimer.current);
  }, []);

  const hits = found?.flatMap((f) => f.hits) ?? [];
  const shown = open && text.trim() !== "" && found !== undefined;

  const clear = () => {
    setText("");
    setFound(undefined);
    setOpen(false);
  };
  const go = (hit: SearchHit | undefined) => {
    if (!hit) return;
    clear();
    document.getElementById(SEARCH_INPUT_ID)?.blur();
    navigate(hit.href);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (!hits.length) return;
      e.preventDefault();
      setOpen(true);
      const step = e.key === "ArrowDown" ? 1 : -1;
      setSelected((i) => (i + step + hits.length) % hits.length);
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (shown) go(hits[selected]);
    } else if (e.key === "Escape") {
      e.stopPropagation();
      clear();
    }
  };

  const optionId = (i: number) => `${listId}-${i}`;
  let index = -1;

  return (
    <div className="search global-search">
      <Icon name="search" size={20} />
      <input
        id={SEARCH_INPUT_ID}
        type="search"
        aria-label={t`Search`}
        placeholder={t`Search`}
        autoComplete="off"
        spellCheck={false}
        aria-keyshortcuts="/"
        role="combobox"
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown && hits.length ? optionId(selected) : undefined}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => {
          clearTimeout(hideTimer.current);
          setOpen(true);
        }}
        onBlur={() => {
          hideTimer.current = setTimeout(() => setOpen(false), HIDE_AFTER_BLUR_MS);
        }}
        data-testid="global-search"
      />
      <span aria-hidden="true">
        <kbd>/</kbd>
      </span>
      {shown && (
        <div
          className="search-results"
          id={listId}
          role="listbox"
          aria-label={t`Search results`}
          aria-busy={searching}
        >
          {found.length === 0 ? (
            <p className="search-empty muted">
              <Trans>Nothing found</Trans>
            </p>
          ) : (
            found.map(({ group, hits: groupHits }) => (
              // biome-ignore lint/a11y/useSemanticElements: a listbox groups its options with role=group, not fieldset
              <div key={group.id} className="search-group" role="group" aria-label={i18n._(group.label)}>
                <div className="search-group-head" aria-hidden="true">
                  <Icon name={group.icon} size={16} />
                  {i18n._(group.label)}
                </div>
                {groupHits.map((hit) => {
                  index += 1;
                  const i = index;
                  return (
                    <div
                      key={hit.key}
                      id={optionId(i)}
                      role="option"
                      tabIndex={-1}
                      aria-selected={i === selected}
                      className={i === selected ? "search-hit selected" : "search-hit"}
                      data-testid={`search-hit-${group.id}`}
                      // Keeps focus in the box, so the blur timer does not race the click.
                      onMouseDown={(e) => e.preventDefault()}
                      onClick={() => go(hit)}
                      onKeyDown={(e) => e.key === "Enter" && go(hit)}
                      onMouseMove={() => setSelected(i)}
                    >
                      <span className="search-hit-title">{hit.title}</span>
                      {hit.detail && <span className="search-hit-detail muted">{hit.detail}</span>}
                    </div>
                  );
                })}
              </div>
            ))
          )}
        </div>
      )}
    </div>
  );
}
