// Where two reads of the same console output meet, so that nothing shows twice (pure, byte-wise).

/**
 * How many first bytes of `next` are the last bytes of `shown`: the longest such overlap that starts
 * at a line start in `shown` (a shorter, mid-line match is more likely chance than the same output).
 * A prefix function over next + separator + shown, so linear in their lengths.
 */
export function overlapLength(shown: Uint8Array, next: Uint8Array): number {
  const m = Math.min(next.length, shown.length);
  if (m === 0) return 0;
  const seq = new Int32Array(m + 1 + shown.length);
  seq.set(next.subarray(0, m));
  seq[m] = -1;
  seq.set(shown, m + 1);
  const pi = new Int32Array(seq.length);
  for (let i = 1; i < seq.length; i++) {
    let k = pi[i - 1];
    while (k > 0 && seq[i] !== seq[k]) k = pi[k - 1];
    if (seq[i] === seq[k]) k++;
    pi[i] = k;
  }
  const newline = 10;
  for (let k = pi[seq.length - 1]; k > 0; k = pi[k - 1]) {
    const start = shown.length - k;
    if (start === 0 || shown[start - 1] === newline) return k;
  }
  return 0;
}

/** How many of the first frames, joined, are exactly the end of `tail`. */
export function coveredPrefix(frames: readonly Uint8Array[], tail: Uint8Array): number {
  let total = 0;
  for (const f of frames) total += f.length;
  for (let count = frames.length; count > 0; count--) {
    if (total <= tail.length && endsWith(tail, frames, count, total)) return count;
    total -= frames[count - 1].length;
  }
  return 0;
}

function endsWith(tail: Uint8Array, frames: readonly Uint8Array[], count: number, total: number): boolean {
  let at = tail.length - total;
  for (let i = 0; i < count; i++) {
    const f = frames[i];
    for (let j = 0; j < f.length; j++) if (tail[at + j] !== f[j]) return false;
    at += f.length;
  }
  return true;
}
