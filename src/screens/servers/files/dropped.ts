// What a drag onto the listing carries, and what an upload would replace.

/** A drag of files from the desktop (not of text or a link). */
export const carriesFiles = (types: readonly string[]) => types.includes("Files");

/** What was dropped: the files, and how many folders (which cannot be uploaded) were among them. */
export function droppedFiles(transfer: Pick<DataTransfer, "items" | "files">): {
  files: File[];
  folders: number;
} {
  const files: File[] = [];
  let folders = 0;
  const items = [...transfer.items].filter((item) => item.kind === "file");
  if (items.length === 0) return { files: [...transfer.files], folders };
  for (const item of items) {
    if (item.webkitGetAsEntry?.()?.isDirectory) {
      folders++;
      continue;
    }
    const file = item.getAsFile();
    if (file) files.push(file);
  }
  return { files, folders };
}

/** The names an upload into a folder would write over. */
export const replacedNames = (files: readonly { name: string }[], names: ReadonlySet<string>) =>
  files.filter((f) => names.has(f.name)).map((f) => f.name);
