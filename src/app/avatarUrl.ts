import md5 from "md5";

// Avatar from the hash of the trimmed, lower-cased e-mail (spec §2.2). Drawn locally as an
// identicon rather than fetched from a third party: no request leaks the hash, works offline.

export function emailHash(email: string): string {
  return md5(email.trim().toLowerCase());
}

/** A 5×5 mirrored identicon as an SVG data URL; the hash is kept in the URL for reference. */
export function identiconUrl(hash: string): string {
  const color = `#${hash.slice(0, 6)}`;
  let cells = "";
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 3; x++) {
      if (Number.parseInt(hash[6 + y * 3 + x], 16) % 2 !== 0) continue;
      cells += `<rect x="${x}" y="${y}" width="1" height="1"/>`;
      if (x < 2) cells += `<rect x="${4 - x}" y="${y}" width="1" height="1"/>`;
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-.5 -.5 6 6" data-hash="${hash}"><rect x="-.5" y="-.5" width="6" height="6" fill="#f0f0f0"/><g fill="${color}">${cells}</g></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export function avatarUrl(email: string): string {
  return identiconUrl(emailHash(email));
}
