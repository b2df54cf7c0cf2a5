import { t } from "@lingui/core/macro";
import type { RefObject } from "react";
import { copyText } from "./clipboard";
import { ScreenIcon } from "./screenIcons";
import { toastError, toastSuccess } from "./toastStore";
import "./controls.css";

/** Copies `text`; when the browser refuses, selects it in `shown` and asks for a manual copy. */
export function CopyButton({
  text,
  shown,
  label,
}: {
  text: string;
  shown?: RefObject<HTMLElement | null>;
  /** Accessible name, e.g. "Copy configuration"; the visible text is "Copy". */
  label?: string;
}) {
  const copy = async () => {
    if (await copyText(text, shown?.current)) toastSuccess(t`Copied to the clipboard`);
    else toastError(t`Copying is not allowed here: the text is selected, copy it with your keyboard`);
  };
  return (
    <button type="button" className="btn btn-outline btn-small" onClick={copy} aria-label={label}>
      <ScreenIcon name="copy" size={16} />
      {t`Copy`}
    </button>
  );
}
