import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type CSSProperties, useEffect, useRef, useState } from "react";
import type { FileEntry } from "../../../api/files";
import { Dialog } from "../../../components/Dialog";
import { formatBytes, formatTime } from "../format";
import { FileIcon, type FileIconName } from "./fileIcons";
import { type EntryKind, entryKind } from "./kinds";
import type { RowAction } from "./rowActions";
import type { SortKey, SortOrder } from "./sorting";

/** Where each inline action sits, so that the same action lines up from row to row. */
const SLOTS: readonly string[][] = [["download"], ["edit", "extract"], ["move"], ["delete"]];

const kindIcon: Record<EntryKind, FileIconName> = {
  up: "folderUp",
  folder: "folder",
  archive: "archive",
  text: "text",
  file: "file",
};

function ActionControl({
  action,
  className,
  onDone,
}: {
  action: RowAction;
  className: string;
  onDone?: () => void;
}) {
  const body = (
    <>
      <FileIcon name={action.icon} size={20} />
      {className.includes("icon-btn") ? null : <span>{action.label}</span>}
    </>
  );
  const cls = action.danger ? `${className} is-danger` : className;
  if (action.href) {
    return (
      <a
        className={cls}
        href={action.href}
        download={action.download ?? ""}
        aria-label={action.name}
        title={action.label}
        data-action={action.id}
        onClick={onDone}
      >
        {body}
      </a>
    );
  }
  return (
    <button
      type="button"
      className={cls}
      aria-label={action.name}
      title={action.label}
      data-action={action.id}
      onClick={() => {
        onDone?.();
        action.run?.();
      }}
    >
      {body}
    </button>
  );
}

/** The entry's name, as a link or button doing its main action (enter, edit, download). */
function OpenControl({ action, kind, name }: { action: RowAction; kind: EntryKind; name: string }) {
  const body = (
    <>
      <FileIcon name={kindIcon[kind]} size={22} className={`fm-kind is-${kind}`} />
      <span className="fm-filename">{name}</span>
    </>
  );
  // The visible name is the accessible name; the tooltip says what a click does.
  const label = kind === "up" ? t`Parent folder` : undefined;
  if (action.href) {
    return (
      <a className="fm-open" href={action.href} download={action.download ?? ""} title={action.label}>
        {body}
      </a>
    );
  }
  return (
    <button type="button" className="fm-open" title={action.label} aria-label={label} onClick={action.run}>
      {body}
    </button>
  );
}

function SortHeader({
  label,
  column,
  sort,
  onSort,
  className,
}: {
  label: string;
  column: SortKey;
  sort: SortOrder;
  onSort: (order: SortOrder) => void;
  className: string;
}) {
  const current = sort.key === column;
  return (
    <th
      scope="col"
      className={className}
      aria-sort={current ? (sort.descending ? "descending" : "ascending") : undefined}
    >
      <button
        type="button"
        className="fm-sort"
        onClick={() => onSort({ key: column, descending: current ? !sort.descending : false })}
      >
        {label}
        {current && <FileIcon name={sort.descending ? "sortDown" : "sortUp"} size={14} />}
      </button>
    </th>
  );
}

function SelectAll({
  count,
  total,
  onChange,
}: {
  count: number;
  total: number;
  onChange: (all: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && count < total;
  }, [count, total]);
  return (
    <label className="fm-check-hit">
      <input
        ref={ref}
        type="checkbox"
        className="fm-checkbox"
        aria-label={t`Select all`}
        checked={total > 0 && count === total}
        disabled={total === 0}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    </label>
  );
}

export function FileTable({
  entries,
  locale,
  selectable,
  selected,
  onSelect,
  onSelectAll,
  sort,
  onSort,
  primary,
  actionsFor,
  empty,
}: {
  entries: FileEntry[];
  locale: string;
  /** Check boxes for the actions on several entries (only for those who may change files). */
  selectable: boolean;
  selected: ReadonlySet<string>;
  onSelect: (name: string, on: boolean) => void;
  onSelectAll: (on: boolean) => void;
  sort: SortOrder;
  onSort: (order: SortOrder) => void;
  /** What a click on the name does. */
  primary: (entry: FileEntry) => RowAction;
  actionsFor: (entry: FileEntry) => RowAction[];
  empty: boolean;
}) {
  const [sheetFor, setSheetFor] = useState<FileEntry>();
  const choosable = entries.filter((e) => e.name !== "..");
  const sheetActions = sheetFor ? actionsFor(sheetFor) : [];
  const rowActions = new Map(entries.map((e) => [e.name, actionsFor(e)]));
  // Only the slots some row fills: a view-only listing keeps its download buttons at the edge.
  const slots = SLOTS.filter((ids) =>
    [...rowActions.values()].some((list) => list.some((a) => ids.includes(a.id))),
  );
  const columns = selectable ? 5 : 4;
  return (
    <>
      <table className="fm-table" data-testid="file-list">
        <thead>
          <tr>
            {selectable && (
              <th scope="col" className="fm-check">
                <SelectAll count={selected.size} total={choosable.length} onChange={onSelectAll} />
              </th>
            )}
            <SortHeader label={t`Name`} column="name" sort={sort} onSort={onSort} className="fm-name" />
            <SortHeader label={t`Size`} column="size" sort={sort} onSort={onSort} className="fm-size" />
            <SortHeader
              label={t`Modified`}
              column="modified"
              sort={sort}
              onSort={onSort}
              className="fm-time"
            />
            <th scope="col" className="fm-actions" style={{ "--fm-slots": slots.length } as CSSProperties}>
              <span className="visually-hidden">
                <Trans>Actions</Trans>
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => {
            const kind = entryKind(entry);
            const name = entry.name;
            const open = primary(entry);
            const actions = rowActions.get(name) ?? [];
            const size = entry.isFile && entry.size !== undefined ? formatBytes(entry.size, locale) : "";
            const time = entry.modifyTime ? formatTime(entry.modifyTime, locale) : "";
            const shortTime = entry.modifyTime ? formatTime(entry.modifyTime, locale, true) : "";
            const isSelected = selected.has(name);
            return (
              <tr
                key={name}
                data-testid="file-row"
                data-name={name}
                data-kind={kind}
                className={isSelected ? "is-selected" : undefined}
              >
                {selectable && (
                  <td className="fm-check">
                    {kind !== "up" && (
                      // The label makes the whole 40 px cell the touch target of the small box.
                      <label className="fm-check-hit">
                        <input
                          type="checkbox"
                          className="fm-checkbox"
                          aria-label={t`Select ${name}`}
                          checked={isSelected}
                          onChange={(e) => onSelect(name, e.currentTarget.checked)}
                        />
                      </label>
                    )}
                  </td>
                )}
                <td className="fm-name">
                  <OpenControl action={open} kind={kind} name={name} />
                  {(size || shortTime) && (
                    <span className="fm-meta muted small">
                      {[size, shortTime].filter(Boolean).join(" · ")}
                    </span>
                  )}
                </td>
                <td className="fm-size">{size}</td>
                <td className="fm-time">{time}</td>
                <td className="fm-actions">
                  {actions.length > 0 && (
                    <>
                      <span className="fm-inline-actions">
                        {slots.map((ids) => {
                          const a = actions.find((x) => ids.includes(x.id));
                          return a ? (
                            <ActionControl key={a.id} action={a} className="icon-btn" />
                          ) : (
                            <span key={ids[0]} className="fm-slot" />
                          );
                        })}
                      </span>
                      <button
                        type="button"
                        className="icon-btn fm-more"
                        aria-label={t`Actions for ${name}`}
                        aria-haspopup="dialog"
                        onClick={() => setSheetFor(entry)}
                      >
                        <FileIcon name="more" size={22} />
                      </button>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
          {empty && (
            <tr className="fm-empty-row">
              <td colSpan={columns} className="fm-empty muted" data-testid="file-empty">
                <Trans>This folder is empty.</Trans>
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {sheetFor && (
        <Dialog title={sheetFor.name} onClose={() => setSheetFor(undefined)} testId="file-actions-sheet">
          <div className="fm-sheet">
            {sheetActions.map((a) => (
              <ActionControl
                key={a.id}
                action={a}
                className="fm-sheet-action"
                onDone={() => setSheetFor(undefined)}
              />
            ))}
          </div>
        </Dialog>
      )}
    </>
  );
}
