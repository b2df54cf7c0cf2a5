import { describe, expect, it } from "vitest";
import {
  AnsiParser,
  applySgr,
  color256,
  type Piece,
  styleClasses,
  styleColors,
} from "../../../src/screens/servers/console/ansi";
import { consoleTextStream } from "../../../src/screens/servers/console/textStream";

const ESC = "\x1b";

/** Pieces as a compact string: text with its classes in brackets, ⏎ for newline, ↵ for CR. */
function show(pieces: Piece[]): string {
  return pieces
    .map((p) => {
      if ("newline" in p) return "⏎";
      if ("cr" in p) return "↵";
      const c = styleClasses(p.style);
      const { color, background } = styleColors(p.style);
      const extra = [c, color && `color:${color}`, background && `bg:${background}`]
        .filter(Boolean)
        .join(" ");
      return extra ? `[${extra}]${p.text}` : p.text;
    })
    .join("|");
}

describe("ANSI parser", () => {
  it("passes plain text and splits lines", () => {
    expect(show(new AnsiParser().push("hello\r\nworld\n"))).toBe("hello|↵|⏎|world|⏎");
  });

  it("applies colours and attributes, and resets", () => {
    const p = new AnsiParser();
    expect(show(p.push(`${ESC}[1;31mred${ESC}[0m plain ${ESC}[92mgreen${ESC}[39m`))).toBe(
      "[a-f1 a-bold]red| plain |[a-f10]green",
    );
  });

  it("keeps the style across chunks", () => {
    const p = new AnsiParser();
    p.push(`${ESC}[33m`);
    expect(show(p.push("still yellow"))).toBe("[a-f3]still yellow");
  });

  it("waits for an escape sequence cut at the end of a chunk", () => {
    const p = new AnsiParser();
    expect(show(p.push(`a${ESC}[3`))).toBe("a");
    expect(show(p.push("4mblue"))).toBe("[a-f4]blue");
    expect(show(p.push(`${ESC}`))).toBe("");
    expect(show(p.push("[0mx"))).toBe("x");
  });

  it("draws 256-colour and true-colour codes as numeric rgb", () => {
    const p = new AnsiParser();
    expect(show(p.push(`${ESC}[38;5;196mA${ESC}[48;2;1;2;3mB${ESC}[38;5;2mC`))).toBe(
      "[color:rgb(255, 0, 0)]A|[color:rgb(255, 0, 0) bg:rgb(1, 2, 3)]B|[a-f2 bg:rgb(1, 2, 3)]C",
    );
    expect(color256(232)).toEqual([8, 8, 8]);
    expect(color256(300)).toBeUndefined();
  });

  it("inverts, defaults included", () => {
    expect(styleClasses(applySgr({}, [7]))).toBe("a-fi a-bi");
    expect(styleClasses(applySgr({}, [31, 7]))).toBe("a-fi a-b1");
  });

  it("drops cursor moves, erases, titles and other control characters", () => {
    const p = new AnsiParser();
    expect(show(p.push(`${ESC}[2K${ESC}[1G${ESC}]0;title\x07a\x07b\x00c\x08d${ESC}(Be`))).toBe("abcde");
  });

  it("never turns text into markup: it stays text", () => {
    const p = new AnsiParser();
    expect(show(p.push('<img src=x onerror="alert(1)">&amp;'))).toBe('<img src=x onerror="alert(1)">&amp;');
  });

  it("ignores malformed SGR parameters", () => {
    const p = new AnsiParser();
    expect(show(p.push(`${ESC}[?25lok${ESC}[38;9mx`))).toBe("ok|x");
  });

  it("gives up on an endless escape sequence instead of buffering forever", () => {
    const p = new AnsiParser();
    p.push(`${ESC}]${"x".repeat(1000)}`);
    expect(show(p.push("next"))).toBe("next");
  });
});

describe("UTF-8 across frames", () => {
  it("a character split between frames decodes once, whole", () => {
    const bytes = new TextEncoder().encode("héllo ✓ 🎮");
    const decode = consoleTextStream();
    let text = "";
    // one byte per frame: every multi-byte character is cut
    for (const b of bytes) text += decode(Uint8Array.of(b));
    expect(text).toBe("héllo ✓ 🎮");
  });
});
