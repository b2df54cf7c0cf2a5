import { t } from "@lingui/core/macro";
import { DAEMON_PREFIX } from "../../../../server/contract/node/console-messages";
import { type Piece, type Style, styleClasses, styleColors } from "./ansi";
import { type NodeMessagePart, nodeMessage } from "./nodeMessages";

export { DAEMON_PREFIX } from "../../../../server/contract/node/console-messages";

/**
 * What stands for `[DAEMON]` before the node's own lines: one short fixed word, not the company
 * name (a long one pushed every such line's text far to the right).
 */
export const daemonTag = (): string => t`Node`;

export interface ConsoleWriterOptions {
  /** Lines kept on screen; the oldest go first. */
  maxLines: number;
  /** Shown in place of the daemon's `[DAEMON]` prefix. */
  tag: () => string;
}

/** A translated node message as DOM nodes: the foreign part in a <q> (the page's quote marks). */
export function nodeMessageNodes(shown: NodeMessagePart[]): (string | Node)[] {
  return shown.map((part) => {
    if (typeof part === "string") return part;
    const q = document.createElement("q");
    q.dir = "auto";
    q.textContent = part.quoted;
    return q;
  });
}

/**
 * Draws console pieces into a container, one element per line. Process text only ever becomes
 * text nodes (textContent / append(string)), never markup.
 */
export class ConsoleWriter {
  private line: HTMLElement | undefined;
  private lineEmpty = true;
  /** A carriage return not yet followed by anything: the next text overwrites the line. */
  private returned = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly options: ConsoleWriterOptions,
  ) {}

  write(pieces: readonly Piece[]): void {
    for (const piece of pieces) {
      if ("newline" in piece) {
        this.returned = false;
        this.current();
        this.line = undefined;
      } else if ("cr" in piece) {
        this.returned = true;
      } else {
        if (this.returned) {
          this.returned = false;
          this.current().replaceChildren();
          this.lineEmpty = true;
        }
        this.append(piece.text, piece.style);
      }
    }
    this.trim();
  }

  /** A line of the panel's own, not of the process (e.g. where output was lost). */
  mark(text: string): void {
    const line = document.createElement("div");
    line.className = "console-line console-mark";
    line.textContent = text;
    this.root.append(line);
    this.line = undefined;
    this.returned = false;
    this.trim();
  }

  clear(): void {
    this.root.replaceChildren();
    this.line = undefined;
    this.returned = false;
  }

  private current(): HTMLElement {
    if (!this.line) {
      this.line = document.createElement("div");
      this.line.className = "console-line";
      this.root.append(this.line);
      this.lineEmpty = true;
    }
    return this.line;
  }

  private append(text: string, style: Style): void {
    const line = this.current();
    let rest = text;
    if (this.lineEmpty && rest.startsWith(DAEMON_PREFIX)) {
      const tag = document.createElement("span");
      tag.className = "console-daemon";
      tag.textContent = this.options.tag();
      line.classList.add("console-line-daemon");
      line.append(tag, " ");
      rest = rest.slice(DAEMON_PREFIX.length);
      // A whole node message in this piece: in the page's language (split ones stay as they came).
      const shown = nodeMessage(rest);
      if (shown) {
        line.append(...nodeMessageNodes(shown));
        this.lineEmpty = false;
        return;
      }
    }
    this.lineEmpty = false;
    if (!rest) return;
    const classes = styleClasses(style);
    const { color, background } = styleColors(style);
    if (!classes && !color && !background) {
      line.append(rest);
      return;
    }
    const span = document.createElement("span");
    span.textContent = rest;
    if (classes) span.className = classes;
    if (color) span.style.color = color;
    if (background) span.style.backgroundColor = background;
    line.append(span);
  }

  private trim(): void {
    let excess = this.root.childElementCount - this.options.maxLines;
    while (excess-- > 0) this.root.firstElementChild?.remove();
  }
}
