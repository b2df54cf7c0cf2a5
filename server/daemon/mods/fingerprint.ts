/**
 * CurseForge's file fingerprint: MurmurHash2 (32 bits, seed 1) of the file's bytes with every
 * tab, line feed, carriage return and space left out. CurseForge looks files up by it (its
 * `/v1/fingerprints` route), so a jar placed by hand is recognised as CurseForge's. MurmurHash2
 * starts from the length of what it hashes, so a file is read twice: once to count the bytes
 * kept (`keptLength`), once to hash them (`Fingerprint`).
 */

const m = 0x5bd1e995;
const seed = 1;

/** The bytes CurseForge leaves out before hashing. */
const skipped = (byte: number) => byte === 9 || byte === 10 || byte === 13 || byte === 32;

/** How many bytes of `chunk` the fingerprint keeps. */
export function keptLength(chunk: Buffer): number {
  let kept = 0;
  for (const byte of chunk) if (!skipped(byte)) kept++;
  return kept;
}

/** MurmurHash2 over the kept bytes, fed chunk by chunk; `length` is what keptLength counted. */
export class Fingerprint {
  private h: number;
  /** Up to three bytes waiting for the rest of their four-byte word. */
  private readonly word = [0, 0, 0, 0];
  private waiting = 0;

  constructor(length: number) {
    this.h = (seed ^ length) >>> 0;
  }

  update(chunk: Buffer): void {
    for (const byte of chunk) {
      if (skipped(byte)) continue;
      this.word[this.waiting++] = byte;
      if (this.waiting < 4) continue;
      this.waiting = 0;
      let k = this.word[0] | (this.word[1] << 8) | (this.word[2] << 16) | (this.word[3] << 24);
      k = Math.imul(k, m);
      k ^= k >>> 24;
      k = Math.imul(k, m);
      this.h = Math.imul(this.h, m) ^ k;
    }
  }

  digest(): number {
    let h = this.h;
    if (this.waiting > 0) {
      if (this.waiting === 3) h ^= this.word[2] << 16;
      if (this.waiting >= 2) h ^= this.word[1] << 8;
      h ^= this.word[0];
      h = Math.imul(h, m);
    }
    h ^= h >>> 13;
    h = Math.imul(h, m);
    h ^= h >>> 15;
    return h >>> 0;
  }
}
