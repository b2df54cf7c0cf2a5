import { plural } from "@lingui/core/macro";
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
  return (
    <div className="fm-selection" data-testid="file-selection">
      <span className="fm-selection-count">{plural(selected.size, { other: "# selected" })}</span>
      <button
        type="button"
        className="btn btn-outline"
        onClick={onArchive}
        data-testid="file-archive-selected"
      >
        <FileIcon name="pack" size={16} />
        <Trans>Archive</Trans>
      </button>
      <button
        type="button"
        className="btn btn-outline color-error"
        onClick={onDelete}
        data-testid="file-delete-selected"
      >
        <FileIcon name="trash" size={16} />
        <Trans>Delete</Trans>
      </button>
      <button type="button" className="btn-text" onClick={onClear}>
        <Trans>Clear selection</Trans>
      </button>
    </div>
  );
}
