// Pure helpers for the one-time code boxes.
export const OTP_LENGTH = 6;

/** Put the digits of `text` into `digits` starting at `from`; returns the new array and next index. */
export function fillDigits(
  digits: readonly string[],
  from: number,
  text: string,
): { digits: string[]; next: number } {
  const out = [...digits];
  let i = from;
  for (const ch of text.replace(/\D/g, "")) {
    if (i >= out.length) break;
    out[i++] = ch;
  }
  return { digits: out, next: Math.min(i, out.length - 1) };
}

export function isComplete(digits: readonly string[]): boolean {
  return digits.length === OTP_LENGTH && digits.every((d) => /^\d$/.test(d));
}
