import { ArchiveDialog, ExtractDialog, MoveDialog, NewEntryDialog } from "./FileDialogs";
import { withArchiveSuffix } from "./kinds";

/** The one dialog the file manager may have open. */
export type OpenDialog =
  | { kind: "new"; entry: "folder" | "file" }
  | { kind: "move"; name: string }
  | { kind: "archive"; names: string[] }
  | { kind: "extract"; name: string };

/** Each dialog's submit: true when done (the dialog closes), false to stay open. */
export interface DialogActions {
  create: (entry: "folder" | "file", name: string) => Promise<boolean>;
  move: (name: string, to: string) => Promise<boolean>;
  archive: (names: string[], archiveName: string) => Promise<boolean>;
  extract: (name: string, destination: string) => Promise<boolean>;
}

export function OpenFileDialog({
  dialog,
  dir,
  taken,
  actions,
  onClose,
}: {
  dialog: OpenDialog;
  dir: string;
  /** The names in the folder: a new entry may not take one. */
  taken: ReadonlySet<string>;
  actions: DialogActions;
  onClose: () => void;
}) {
  switch (dialog.kind) {
    case "new":
      return (
        <NewEntryDialog
          kind={dialog.entry}
          dir={dir}
          taken={taken}
          onSubmit={(name) => actions.create(dialog.entry, name)}
          onClose={onClose}
        />
      );
    case "move":
      return (
        <MoveDialog
          dir={dir}
          name={dialog.name}
          onSubmit={(to) => actions.move(dialog.name, to)}
          onClose={onClose}
        />
      );
    case "archive":
      return (
        <ArchiveDialog
          count={dialog.names.length}
          initialName={withArchiveSuffix(dialog.names.length === 1 ? dialog.names[0] : "archive", "zip")}
          taken={taken}
          onSubmit={(name) => actions.archive(dialog.names, name)}
          onClose={onClose}
        />
      );
    case "extract":
      return (
        <ExtractDialog
          dir={dir}
          name={dialog.name}
          onSubmit={(destination) => actions.extract(dialog.name, destination)}
          onClose={onClose}
        />
      );
  }
}
