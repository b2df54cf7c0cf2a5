import { Trans } from "@lingui/react/macro";
import { ScreenIcon } from "../components/screenIcons";
import { offlineReason } from "../offline/NeedsNetwork";

/** A detail page's Delete: disabled while deleting, and offline with the reason as its title. */
export function DeleteButton({
  onClick,
  busy,
  offline,
}: {
  onClick: () => void;
  busy: boolean;
  offline: boolean;
}) {
  return (
    <button
      type="button"
      className="btn btn-outline color-error"
      onClick={onClick}
      disabled={busy || offline}
      title={offline ? offlineReason() : undefined}
    >
      <ScreenIcon name="trash" size={18} />
      <Trans>Delete</Trans>
    </button>
  );
}
