import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type yauzl from "yauzl";
import { type archiveLimits, isRepoFile } from "./repo-files.ts";

/**
 * Unpacks the template files of a zipped repository into `dir`. A zip is
 * read from its end, so the download goes to a temporary file first. Only
 * regular .json and README.md files are written, by names checked to stay
 * inside `dir`, within the given sizes.
 */
export async function extractZipRepo(
  body: Readable,
  dir: string,
  limits: typeof archiveLimits,
): Promise<void> {
  const temp = await fs.promises.mkdtemp(path.join(os.tmpdir(), "outpost-repo-zip-"));
  const file = path.join(temp, "repo.zip");
  try {
    let downloaded = 0;
    body.on("data", (chunk: Buffer) => {
      downloaded += chunk.length;
      if (downloaded > limits.totalBytes)
        body.destroy(new Error("archive is larger than a template repository can be"));
    });
    await pipeline(body, fs.createWriteStream(file));
    // Loaded on first use: most panels never fetch a template repository as a zip.
    const { default: zipReader } = await import("yauzl");
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      zipReader.open(file, { lazyEntries: true }, (err, opened) => (err ? reject(err) : resolve(opened))),
    );
    let total = 0;
    await new Promise<void>((resolve, reject) => {
      zip.on("error", reject);
      zip.on("end", resolve);
      zip.on("entry", (entry: yauzl.Entry) => {
        const name = entry.fileName;
        const isFile = !name.endsWith("/") && ((entry.externalFileAttributes >>> 16) & 0o170000) !== 0o120000;
        if (!isFile || !isRepoFile(name)) return zip.readEntry();
        total += entry.uncompressedSize;
        if (entry.uncompressedSize > limits.fileBytes || total > limits.totalBytes) {
          zip.close();
          return reject(new Error(`archive is larger than a template repository can be (${name})`));
        }
        const target = path.join(dir, name);
        if (!target.startsWith(dir + path.sep)) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          fs.promises
            .mkdir(path.dirname(target), { recursive: true })
            .then(() => pipeline(stream, fs.createWriteStream(target, { flags: "wx" })))
            .then(() => zip.readEntry(), reject);
        });
      });
      zip.readEntry();
    });
  } finally {
    await fs.promises.rm(temp, { recursive: true, force: true });
  }
}
