import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type Ref, useRef } from "react";
import { FileIcon, type FileIconName } from "./fileIcons";
import { breadcrumbs } from "./paths";

/** A button of the tool bar; on a narrow section its text is hidden (still read out) and its title tells. */
interface ToolButton {
  icon: FileIconName;
  text: string;
  title?: string;
  outline?: boolean;
  onClick: () => void;
  testId: string;
}

/** The folder path (each part opens its folder) and the tools: refresh, new folder or file, upload. */
export function FileToolbar({
  dir,
  go,
  currentCrumb,
  canEdit,
  refreshing,
  onRefresh,
  onNew,
  onUpload,
}: {
  dir: string;
  go: (dir: string) => void;
  /** Where focus goes after entering a folder: the current part of the path. */
  currentCrumb: Ref<HTMLButtonElement>;
  canEdit: boolean;
  refreshing: boolean;
  onRefresh: () => void;
  onNew: (entry: "folder" | "file") => void;
  onUpload: (files: File[]) => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const tools: ToolButton[] = [
    {
      icon: "folderPlus",
      text: t`New folder`,
      outline: true,
      onClick: () => onNew("folder"),
      testId: "file-new-folder",
    },
    {
      icon: "filePlus",
      text: t`New file`,
      outline: true,
      onClick: () => onNew("file"),
      testId: "file-new-file",
    },
    {
      icon: "upload",
      text: t`Upload`,
      title: t`Upload files`,
      onClick: () => fileInput.current?.click(),
      testId: "file-upload",
    },
  ];
  return (
    <div className="fm-bar">
      <nav className="fm-crumbs" aria-label={t`Folder path`} data-testid="file-crumbs">
        <ol>
          <li>
            <button
              type="button"
              className="btn-text fm-crumb"
              ref={dir === "" ? currentCrumb : undefined}
              aria-current={dir === "" ? "location" : undefined}
              onClick={() => go("")}
            >
              <FileIcon name="home" size={18} />
              <span>
                <Trans>Server folder</Trans>
              </span>
            </button>
          </li>
          {breadcrumbs(dir).map((c) => (
            <li key={c.path}>
              <FileIcon name="chevron" size={14} className="fm-crumb-sep flip-rtl" />
              <button
                type="button"
                className="btn-text fm-crumb"
                ref={c.path === dir ? currentCrumb : undefined}
                aria-current={c.path === dir ? "location" : undefined}
                onClick={() => go(c.path)}
              >
                {c.name}
              </button>
            </li>
          ))}
        </ol>
      </nav>
      <div className="fm-tools">
        <button
          type="button"
          className={refreshing ? "icon-btn is-busy" : "icon-btn"}
          aria-label={t`Refresh`}
          title={t`Refresh`}
          onClick={onRefresh}
          data-testid="file-refresh"
        >
          <FileIcon name="refresh" size={20} />
        </button>
        {canEdit && (
          <>
            {tools.map((tool) => (
              <button
                key={tool.testId}
                type="button"
                className={tool.outline ? "btn btn-outline fm-tool" : "btn fm-tool"}
                onClick={tool.onClick}
                data-testid={tool.testId}
                title={tool.title ?? tool.text}
              >
                <FileIcon name={tool.icon} size={18} />
                <span className="fm-tool-text">{tool.text}</span>
              </button>
            ))}
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              tabIndex={-1}
              data-testid="file-upload-input"
              onChange={(e) => {
                const files = [...(e.currentTarget.files ?? [])];
                e.currentTarget.value = "";
                onUpload(files);
              }}
            />
          </>
        )}
      </div>
    </div>
  );
}
