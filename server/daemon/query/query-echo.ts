/**
 * What a game server writes in its console because the node asked it for its players (issue 41):
 * OpenTTD logs each query's connection as a client that came and went, two lines every time the
 * panel samples it, which buried real output and the lines kept for offline. The node knows when
 * it asks; while a question is out (and a moment after, for the game to log the goodbye), each of
 * these lines is left out once per question. A player's own lines outside that window, or beyond
 * the one pair a question makes, stay.
 */
const echoes: Record<string, readonly RegExp[]> = {
  openttd: [
    /^dbg: \[net\] \[server\] Client connected from (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1) on frame \d+\r?$/,
    /^dbg: \[net\] \[server\] Client #\d+ closed connection\r?$/,
  ],
};

/** How long after an answer the game may still log the question's goodbye. */
export const echoGraceMs = 1500;

export class QueryEchoFilter {
  /** Lines still to leave out for the questions out now: each pattern once per question. */
  private expected: RegExp[] = [];
  private open = 0;
  /** Lines left out so far (a figure for tests and diagnostics). */
  folded = 0;

  /** A question to the game is going out: its echo is expected until `done` and a moment after. */
  expect(type: string): () => void {
    const patterns = echoes[type];
    if (!patterns) return () => {};
    this.expected.push(...patterns);
    this.open++;
    return () => {
      const timer = setTimeout(() => {
        this.open--;
        // The last question's window closed: whatever echo did not come is no longer awaited.
        if (this.open === 0) this.expected = [];
      }, echoGraceMs);
      timer.unref();
    };
  }

  /** The output with the awaited echo lines left out (whole lines only; the rest as it came). */
  filter(data: Buffer): Buffer {
    if (this.expected.length === 0) return data;
    const text = data.toString("utf8");
    const lines = text.split("\n");
    // The last piece has no newline yet: it goes on as it is.
    const kept: string[] = [];
    let dropped = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const whole = i < lines.length - 1;
      const at = whole ? this.expected.findIndex((p) => p.test(line)) : -1;
      if (at >= 0) {
        this.expected.splice(at, 1);
        this.folded++;
        dropped = true;
        continue;
      }
      kept.push(whole ? `${line}\n` : line);
    }
    return dropped ? Buffer.from(kept.join("")) : data;
  }
}
