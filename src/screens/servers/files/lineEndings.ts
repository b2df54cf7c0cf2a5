// A text area turns every CRLF (and lone CR) into LF. A file that had CRLF gets them back on save,
// so editing one line of a Windows-style file does not rewrite all of them.

/** The text as the text area holds it, and whether the file used CRLF. */
export function toEditable(raw: string): { text: string; crlf: boolean } {
  return { text: raw.replace(/\r\n?/g, "\n"), crlf: raw.includes("\r\n") };
}

/** The text as it is written back. */
export function toStored(text: string, crlf: boolean): string {
  return crlf ? text.replace(/\n/g, "\r\n") : text;
}
