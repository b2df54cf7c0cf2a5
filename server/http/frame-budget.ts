/** A rate as a token bucket: `burst` at once, then `perSecond` more each second. */
export interface Rate {
  readonly burst: number;
  readonly perSecond: number;
}

/**
 * A token bucket over `rate`: each call takes one token and answers whether one was left. What
 * a client sends faster than a person could (frames on a socket, requests of one session) is
 * refused at the cost of this check, not of the work it asks for.
 */
export function tokenBucket(rate: Rate, now: () => number = Date.now): () => boolean {
  let tokens = rate.burst;
  let last = now();
  return () => {
    const at = now();
    tokens = Math.min(rate.burst, tokens + ((at - last) / 1000) * rate.perSecond);
    last = at;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}
