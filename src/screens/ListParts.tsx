import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { ListTypeToggle } from "../components/ListTypeToggle";
import { ScreenIcon } from "../components/screenIcons";
import { OnlineLink } from "../offline/NeedsNetwork";
import "../components/screen-head.css";
import "./list-parts.css";

// What the list screens (nodes, servers, users, the activity log) share above and below their items.

/** A list screen's head: its title, the grid/list choice and, if the account may, the way to a new one. */
export function ListHead({
  title,
  create,
}: {
  title: ReactNode;
  /** The create screen and its button's text; false when the account may not create. */
  create: { href: string; label: ReactNode } | false;
}) {
  return (
    <header className="screen-head">
      <h1 className="panel-title">{title}</h1>
      <div className="screen-actions">
        <ListTypeToggle />
        {create && (
          <OnlineLink href={create.href} className="btn">
            <ScreenIcon name="plus" size={18} />
            {create.label}
          </OnlineLink>
        )}
      </div>
    </header>
  );
}

/** Under a list read a page at a time: the next page. */
export function ShowMore({ onClick, disabled }: { onClick: () => void; disabled: boolean }) {
  return (
    <div className="list-more">
      <button type="button" className="btn btn-outline" onClick={onClick} disabled={disabled}>
        <Trans>Show more</Trans>
      </button>
    </div>
  );
}
