import md5 from "md5";

// Avatar by hash of the trimmed, lower-cased e-mail (spec §2.2), gravatar-compatible.
export function emailHash(email: string): string {
  return md5(email.trim().toLowerCase());
}

export function avatarUrl(email: string, size = 80): string {
  return `https://www.gravatar.com/avatar/${emailHash(email)}?d=identicon&s=${size}`;
}

/** A local identicon from the same hash, used when the remote image cannot load (offline). */
export function identiconDataUrl(hash: string): string {
  const color = `#${hash.slice(0, 6)}`;
  let cells = "";
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 3; x++) {
      const on = Number.parseInt(hash[y * 3 + x + 6], 16) % 2 === 0;
      if (!on) continue;
      cells += `<rect x="${x}" y="${y}" width="1" height="1"/>`;
      if (x < 2) cells += `<rect x="${4 - x}" y="${y}" width="1" height="1"/>`;
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-.5 -.5 6 6"><rect x="-.5" y="-.5" width="6" height="6" fill="#f0f0f0"/><g fill="${color}">${cells}</g></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
