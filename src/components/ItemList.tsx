import type { ReactNode } from "react";
import { Link } from "wouter";
import type { ListType } from "../state/listType";
import "./item-list.css";

/**
 * The list of a list screen (nodes, users…) as cards or as rows (spec §2.3: grid or plain list,
 * the user's choice). Entries are `ItemEntry`s.
 */
export function ItemList({
  layout,
  busy,
  dense,
  testId,
  children,
}: {
  layout: ListType;
  busy?: boolean;
  /** Smaller entries, for lists inside a section (a repository's templates). */
  dense?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  const className = `item-list item-list-${layout}${dense ? " item-list-dense" : ""}`;
  return (
    <ul className={className} aria-busy={busy || undefined} data-testid={testId}>
      {children}
    </ul>
  );
}

/** One entry: an icon, its name and a detail line, and something at its side (a badge). */
export function ItemEntry({
  href,
  icon,
  name,
  detail,
  side,
  testId,
}: {
  href: string;
  icon: ReactNode;
  name: ReactNode;
  detail?: ReactNode;
  side?: ReactNode;
  testId?: string;
}) {
  return (
    <li>
      <Link href={href} className="item-entry" data-testid={testId} data-list-entry="">
        <span className="item-entry-icon">{icon}</span>
        <span className="item-entry-main">
          <span className="item-entry-name">{name}</span>
          {detail && <span className="item-entry-detail muted">{detail}</span>}
        </span>
        {side && <span className="item-entry-side">{side}</span>}
      </Link>
    </li>
  );
}
