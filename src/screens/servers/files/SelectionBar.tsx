import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { FileIcon } from "./fileIcons";

/** What can be done with the checked entries: archive them, delete them, or uncheck them. */
export function SelectionBar({
  selected,
  onArchive,
  onDelete,
  onClear,
}: {
  selected: ReadonlySet<string>;
  onArchive: () => void;
  onDelete: () => void;
  onClear: () => void;
}) {
  const actions = [
    {
      icon: "pack",
      text: t`Archive`,
      className: "btn btn-outline",
      onClick: onArchive,
      testId: "file-archive-selected",
    },
    {
      icon: "trash",
      text: t`Delete`,
      className: "btn btn-outline color-error",
      onClick: onDelete,
      testId: "file-delete-selected",
    },
  ] as const;
  return (
    <div className="fm-selection" data-testid="file-selection">
      <span className="fm-selection-count">{plural(selected.size, { other: "# selected" })}</span>
      {actions.map((a) => (
        <button
          key={a.testId}
          type="button"
          className={a.className}
          onClick={a.onClick}
          data-testid={a.testId}
        >
          <FileIcon name={a.icon} size={16} />
          {a.text}
        </button>
      ))}
      <button type="button" className="btn-text" onClick={onClear}>
        <Trans>Clear selection</Trans>
      </button>
    </div>
  );
}
