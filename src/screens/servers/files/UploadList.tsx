import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { formatBytes, formatPercent } from "../format";
import { FileIcon } from "./fileIcons";
import { shownPath } from "./paths";
import type { Upload } from "./useUploads";

function stateText(u: Upload, locale: string): string {
  switch (u.state) {
    case "waiting":
      return t`Waiting`;
    case "sending": {
      const sent = formatBytes(u.sent, locale);
      const size = formatBytes(u.size, locale);
      const percent = formatPercent(u.sent, u.size, locale);
      return t`${sent} of ${size} · ${percent}`;
    }
    case "done": {
      const size = formatBytes(u.size, locale);
      return t`Done · ${size}`;
    }
    case "failed":
      return t`Failed`;
    default:
      return t`Cancelled`;
  }
}

/** The uploads of this visit, each with a progress bar, a cancel button while it runs. */
export function UploadList({
  uploads,
  locale,
  onCancel,
  onClear,
}: {
  uploads: Upload[];
  locale: string;
  onCancel: (id: number) => void;
  onClear: () => void;
}) {
  if (uploads.length === 0) return null;
  const running = uploads.some((u) => u.state === "waiting" || u.state === "sending");
  return (
    <section className="fm-uploads" aria-label={t`Uploads`} data-testid="upload-list">
      <ul>
        {uploads.map((u) => {
          const name = u.name;
          return (
            <li
              key={u.id}
              className={`fm-upload is-${u.state}`}
              data-testid="upload-item"
              data-state={u.state}
            >
              <div className="fm-upload-head">
                <FileIcon name={u.state === "done" ? "check" : "upload"} size={18} />
                <span className="fm-upload-name" title={shownPath(`${u.dir}/${u.name}`)}>
                  {u.name}
                </span>
                <span className="fm-upload-state muted small" aria-live="polite">
                  {stateText(u, locale)}
                </span>
                {(u.state === "waiting" || u.state === "sending") && (
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={t`Cancel upload of ${name}`}
                    title={t`Cancel upload`}
                    onClick={() => onCancel(u.id)}
                  >
                    <FileIcon name="close" size={18} />
                  </button>
                )}
              </div>
              <progress
                className="fm-progress"
                max={Math.max(1, u.size)}
                value={u.state === "done" ? Math.max(1, u.size) : u.sent}
                aria-label={t`Upload of ${name}`}
              />
            </li>
          );
        })}
      </ul>
      {!running && (
        <button type="button" className="btn-text" onClick={onClear}>
          <Trans>Clear the finished uploads</Trans>
        </button>
      )}
    </section>
  );
}
