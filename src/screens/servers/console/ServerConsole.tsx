import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { sendCommand } from "../../../api/servers";
import { online } from "../../../offline/network";
import type { ServerLive } from "../../../state/serverLive";
import { ActionIcon } from "../serverIcons";
import { AnsiParser } from "./ansi";
import { ConsoleWriter, daemonTag } from "./ConsoleWriter";
import { CommandHistory, historyOf } from "./commandHistory";
import { consoleTextStream } from "./textStream";
import "./console.css";

export const CONSOLE_MAX_LINES = 5000;
/** Text waiting for the next frame (a hidden tab paints nothing): beyond this the oldest is cut. */
const MAX_WAITING_CHARS = 1 << 20;
/** Within this many pixels of the end the console counts as following the tail. */
const TAIL_SLACK_PX = 24;

function ConnectionState({ live }: { live: ServerLive }) {
  const state = live.socket.value;
  // Offline, a socket may still look open until it times out: nothing live reaches it.
  if (!online.value) {
    return (
      <span className="conn conn-closed" data-testid="socket-state" data-state="offline">
        <Trans>Not live: you are offline</Trans>
      </span>
    );
  }
  if (state === "open") {
    return (
      <span className="conn conn-open" data-testid="socket-state" data-state="open">
        <Trans>Live</Trans>
      </span>
    );
  }
  if (state === "connecting") {
    return (
      <span className="conn" data-testid="socket-state" data-state="connecting">
        <Trans>Connecting…</Trans>
      </span>
    );
  }
  return (
    <span className="conn conn-closed" data-testid="socket-state" data-state="closed">
      {live.gaveUp.value ? (
        <>
          <Trans>Disconnected, updating every 5 s</Trans>
          <button type="button" className="btn-text" onClick={() => live.reconnect()}>
            <Trans>Reconnect</Trans>
          </button>
        </>
      ) : (
        <Trans>Reconnecting, updating every 5 s</Trans>
      )}
    </span>
  );
}

/**
 * The live console (spec §2.3, reference §4): output decoded as a UTF-8 stream, ANSI colours
 * drawn as classes (process text only ever becomes text nodes), the last 5000 lines kept,
 * following the tail unless scrolled up; a command box with history when the user may send.
 */
export function ServerConsole({
  live,
  canSend,
  active,
}: {
  live: ServerLive;
  canSend: boolean;
  /** False while another section is shown (the console keeps collecting meanwhile). */
  active: boolean;
}) {
  const out = useRef<HTMLDivElement>(null);
  const writer = useRef<ConsoleWriter | undefined>(undefined);
  const following = useRef(true);
  const [behind, setBehind] = useState(false);
  const [command, setCommand] = useState("");
  const history = useRef(new CommandHistory(historyOf(live.id)));

  useEffect(() => {
    const el = out.current;
    if (!el) return;
    const w = new ConsoleWriter(el, { maxLines: CONSOLE_MAX_LINES, tag: daemonTag });
    writer.current = w;
    let parser = new AnsiParser();
    let decode = consoleTextStream();
    let waiting = "";
    let frame = 0;
    const paint = () => {
      cancelAnimationFrame(frame);
      frame = 0;
      const text = waiting;
      waiting = "";
      w.write(parser.push(text));
      if (following.current) el.scrollTop = el.scrollHeight;
    };
    const off = live.onConsole(
      (bytes) => {
        waiting += decode(bytes);
        if (waiting.length > MAX_WAITING_CHARS) waiting = waiting.slice(-MAX_WAITING_CHARS / 2);
        if (!frame) frame = requestAnimationFrame(paint);
      },
      () => {
        // What came before the gap, then the marker; a character or colour cut by the gap ends there.
        paint();
        parser = new AnsiParser();
        decode = consoleTextStream();
        w.mark(t`Some lines were skipped: the connection could not keep up`);
        if (following.current) el.scrollTop = el.scrollHeight;
      },
    );
    return () => {
      off();
      cancelAnimationFrame(frame);
      w.clear();
    };
  }, [live]);

  // Back on the console tab: still at the tail if it was.
  useEffect(() => {
    const el = out.current;
    if (active && el && following.current) el.scrollTop = el.scrollHeight;
  }, [active]);

  const onScroll = () => {
    const el = out.current;
    if (!el || el.clientHeight === 0) return;
    const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < TAIL_SLACK_PX;
    following.current = atEnd;
    setBehind(!atEnd);
  };

  const toEnd = () => {
    const el = out.current;
    if (!el) return;
    following.current = true;
    setBehind(false);
    el.scrollTop = el.scrollHeight;
  };

  const send = (e: FormEvent) => {
    e.preventDefault();
    const line = command.replace(/[\r\n]+/g, " ");
    if (!line.trim()) return;
    history.current.add(line);
    setCommand("");
    toEnd();
    sendCommand(live.id, line).catch(() => {
      // the global handler says why (e.g. the server is offline)
    });
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowUp") {
      const older = history.current.older(command);
      if (older !== undefined) {
        e.preventDefault();
        setCommand(older);
      }
    } else if (e.key === "ArrowDown") {
      const newer = history.current.newer();
      if (newer !== undefined) {
        e.preventDefault();
        setCommand(newer);
      }
    }
  };

  return (
    <div className="console">
      <div className="console-bar">
        <ConnectionState live={live} />
        <button type="button" className="btn-text" onClick={() => writer.current?.clear()}>
          <Trans>Clear</Trans>
        </button>
      </div>
      <div className="console-frame">
        <div
          ref={out}
          className="console-output"
          role="log"
          aria-label={t`Console output`}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the log scrolls; keyboard users need to reach it
          tabIndex={0}
          onScroll={onScroll}
          data-testid="console-output"
        />
        {behind && (
          <button type="button" className="btn btn-small console-jump" onClick={toEnd}>
            <ActionIcon name="down" size={16} />
            <Trans>Follow output</Trans>
          </button>
        )}
      </div>
      {canSend && (
        <form className="console-send" onSubmit={send}>
          <span className="console-prompt" aria-hidden="true">
            &gt;
          </span>
          <input
            value={command}
            onChange={(e) => setCommand(e.currentTarget.value)}
            onKeyDown={onKey}
            aria-label={t`Command`}
            placeholder={t`Type a command, ↑ for history`}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={4000}
            data-testid="console-input"
          />
          <button
            type="submit"
            className="icon-btn"
            aria-label={t`Send`}
            title={t`Send`}
            disabled={!command.trim()}
          >
            <ActionIcon name="send" />
          </button>
        </form>
      )}
    </div>
  );
}
