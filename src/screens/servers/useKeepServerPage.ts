import { useEffect } from "react";
import type { Server } from "../../api/servers";
import { rememberServerPage } from "../../offline/lastKnown";
import type { ServerLive } from "../../state/serverLive";
import { AnsiParser, type Piece } from "./console/ansi";
import { consoleTextStream } from "./console/textStream";

/** Console lines a server's page keeps for offline (issue 11). */
export const KEPT_CONSOLE_LINES = 40;
const SAVE_MS = 2000;

/** The console's plain text, its last lines only (a carriage return starts its line over). */
export class ConsoleTail {
  private lines: string[] = [];
  private line = "";
  private returned = false;

  constructor(private readonly max = KEPT_CONSOLE_LINES) {}

  write(pieces: readonly Piece[]): void {
    for (const piece of pieces) {
      if ("newline" in piece) {
        this.lines.push(this.line);
        if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
        this.line = "";
        this.returned = false;
      } else if ("cr" in piece) {
        this.returned = true;
      } else {
        if (this.returned) this.line = "";
        this.returned = false;
        this.line += piece.text;
      }
    }
  }

  get shown(): string[] {
    return this.line ? [...this.lines, this.line].slice(-this.max) : [...this.lines];
  }
}

/**
 * Keeps what the server's page shows (the server, the console's last lines) for an offline
 * visit: at once, then every few seconds while something changed, and on leaving the page.
 */
export function useKeepServerPage(
  server: Server | undefined,
  scopes: string[] | undefined,
  live: ServerLive | undefined,
  console: boolean,
) {
  useEffect(() => {
    if (!server || !scopes || !live) return;
    const tail = new ConsoleTail();
    const parser = new AnsiParser();
    const decode = consoleTextStream();
    let changed = true;
    const off = console
      ? live.onConsole((bytes) => {
          tail.write(parser.push(decode(bytes)));
          changed = true;
        })
      : () => undefined;
    const save = () => {
      if (!changed) return;
      changed = false;
      void rememberServerPage(server.id, { server, scopes, console: tail.shown });
    };
    // Kept as soon as it is shown (issue 41: a page left within the first seconds was not), then
    // every few seconds while it changes, and when the network goes or the page is left.
    save();
    const timer = setInterval(save, SAVE_MS);
    addEventListener("pagehide", save);
    addEventListener("offline", save);
    return () => {
      save();
      clearInterval(timer);
      removeEventListener("pagehide", save);
      removeEventListener("offline", save);
      off();
    };
  }, [server, scopes, live, console]);
}
