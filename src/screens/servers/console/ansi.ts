// ANSI escape sequences → styled text pieces (no DOM, no HTML). Process output is data: it only
// ever becomes text nodes; styles are a fixed set of classes and numeric colours.

/** 0–15: the palette classes; an RGB triple for 256-colour and true-colour codes. */
export type Color = number | readonly [number, number, number];

export interface Style {
  fg?: Color;
  bg?: Color;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
  strike?: boolean;
}

export type Piece = { text: string; style: Style } | { newline: true } | { cr: true };

const PLAIN: Style = Object.freeze({});
/** An escape sequence longer than this is not one: it is dropped rather than waited for. */
const MAX_PENDING = 256;

const CUBE = [0, 95, 135, 175, 215, 255];

/** xterm's 256 colours: 0–15 the palette, then a 6×6×6 cube, then 24 greys. */
export function color256(n: number): Color | undefined {
  if (!Number.isInteger(n) || n < 0 || n > 255) return undefined;
  if (n < 16) return n;
  if (n < 232) {
    const i = n - 16;
    return [CUBE[Math.floor(i / 36)], CUBE[Math.floor(i / 6) % 6], CUBE[i % 6]];
  }
  const g = 8 + (n - 232) * 10;
  return [g, g, g];
}

const byte = (n: number | undefined) =>
  n !== undefined && Number.isInteger(n) && n >= 0 && n <= 255 ? n : 0;

/** Applies one SGR parameter list (`ESC [ … m`) to a style; returns a new style object. */
export function applySgr(style: Style, params: readonly number[]): Style {
  const next: Style = { ...style };
  const codes = params.length ? params : [0];
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c === 0) {
      for (const key of Object.keys(next)) delete next[key as keyof Style];
    } else if (c === 1) next.bold = true;
    else if (c === 2) next.dim = true;
    else if (c === 3) next.italic = true;
    else if (c === 4) next.underline = true;
    else if (c === 7) next.inverse = true;
    else if (c === 9) next.strike = true;
    else if (c === 22) {
      delete next.bold;
      delete next.dim;
    } else if (c === 23) delete next.italic;
    else if (c === 24) delete next.underline;
    else if (c === 27) delete next.inverse;
    else if (c === 29) delete next.strike;
    else if (c >= 30 && c <= 37) next.fg = c - 30;
    else if (c >= 90 && c <= 97) next.fg = c - 90 + 8;
    else if (c === 39) delete next.fg;
    else if (c >= 40 && c <= 47) next.bg = c - 40;
    else if (c >= 100 && c <= 107) next.bg = c - 100 + 8;
    else if (c === 49) delete next.bg;
    else if (c === 38 || c === 48) {
      const key = c === 38 ? "fg" : "bg";
      let color: Color | undefined;
      if (codes[i + 1] === 5) {
        color = color256(codes[i + 2]);
        i += 2;
      } else if (codes[i + 1] === 2) {
        color = [byte(codes[i + 2]), byte(codes[i + 3]), byte(codes[i + 4])];
        i += 4;
      } else break;
      if (color !== undefined) next[key] = color;
    }
  }
  return Object.keys(next).length ? next : PLAIN;
}

function isFinalByte(code: number): boolean {
  return code >= 0x40 && code <= 0x7e;
}

/**
 * Turns decoded console text into pieces. Keeps the style and any escape sequence cut off at the
 * end of a chunk, so output split anywhere renders the same.
 */
export class AnsiParser {
  private style: Style = PLAIN;
  private pending = "";

  push(chunk: string): Piece[] {
    const input = this.pending + chunk;
    this.pending = "";
    const pieces: Piece[] = [];
    let text = "";
    const flush = () => {
      if (text) pieces.push({ text, style: this.style });
      text = "";
    };
    let i = 0;
    while (i < input.length) {
      const ch = input.charCodeAt(i);
      if (ch === 0x1b) {
        const end = this.sequenceEnd(input, i);
        if (end === -1) {
          // cut off: wait for the rest (unless it is hopelessly long)
          const rest = input.slice(i);
          if (rest.length <= MAX_PENDING) this.pending = rest;
          break;
        }
        const seq = input.slice(i, end);
        if (seq.length > 2 && seq[1] === "[" && seq.endsWith("m")) {
          flush();
          this.style = applySgr(this.style, sgrParams(seq.slice(2, -1)));
        }
        i = end;
        continue;
      }
      if (ch === 0x0a) {
        flush();
        pieces.push({ newline: true });
      } else if (ch === 0x0d) {
        flush();
        pieces.push({ cr: true });
      } else if (ch === 0x09 || (ch >= 0x20 && ch !== 0x7f && !(ch >= 0x80 && ch < 0xa0))) {
        text += input[i];
      }
      // other control characters (bell, backspace, NUL, C1) are dropped
      i++;
    }
    flush();
    return pieces;
  }

  /** Index after the escape sequence starting at `start`, or -1 when the input ends inside it. */
  private sequenceEnd(input: string, start: number): number {
    const kind = input[start + 1];
    if (kind === undefined) return -1;
    if (kind === "[") {
      for (let j = start + 2; j < input.length; j++) {
        if (isFinalByte(input.charCodeAt(j))) return j + 1;
      }
      return -1;
    }
    if (kind === "]" || kind === "P" || kind === "_" || kind === "^") {
      // OSC / DCS / APC / PM: up to BEL or ESC \
      for (let j = start + 2; j < input.length; j++) {
        if (input[j] === "\x07") return j + 1;
        if (input[j] === "\x1b") {
          if (j + 1 >= input.length) return -1;
          if (input[j + 1] === "\\") return j + 2;
        }
      }
      return -1;
    }
    if (kind === "(" || kind === ")" || kind === "#") return start + 3 <= input.length ? start + 3 : -1;
    return start + 2;
  }
}

function sgrParams(body: string): number[] {
  if (!/^[\d;:]*$/.test(body)) return [-1];
  if (body === "") return [0];
  return body.split(/[;:]/).map((p) => (p === "" ? 0 : Number(p)));
}

/** Class names for a style (the palette and attributes; see console.css). */
export function styleClasses(style: Style): string {
  const classes: string[] = [];
  let fg = style.fg;
  let bg = style.bg;
  if (style.inverse) {
    // swapped; the defaults swap too (drawn by the a-fi / a-bi classes)
    [fg, bg] = [bg, fg];
    if (fg === undefined) classes.push("a-fi");
    if (bg === undefined) classes.push("a-bi");
  }
  if (typeof fg === "number") classes.push(`a-f${fg}`);
  if (typeof bg === "number") classes.push(`a-b${bg}`);
  if (style.bold) classes.push("a-bold");
  if (style.dim) classes.push("a-dim");
  if (style.italic) classes.push("a-italic");
  if (style.underline) classes.push("a-underline");
  if (style.strike) classes.push("a-strike");
  return classes.join(" ");
}

/** Inline colours for RGB (256-colour / true-colour) codes: numbers only, never process text. */
export function styleColors(style: Style): { color?: string; background?: string } {
  let fg = style.fg;
  let bg = style.bg;
  if (style.inverse) [fg, bg] = [bg, fg];
  const css = (c: Color | undefined) => (Array.isArray(c) ? `rgb(${c.map(byte).join(", ")})` : undefined);
  return { color: css(fg), background: css(bg) };
}
