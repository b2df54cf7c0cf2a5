import type { EventEmitter } from "node:events";
import type { IncomingHttpHeaders } from "node:http";
import { createRequire } from "node:module";
import type { Readable, Writable } from "node:stream";

/** Whether a request's body is a multipart form. */
export const isMultipart = (contentType: string | undefined): boolean =>
  contentType !== undefined && /^multipart\/form-data\s*(?:;|$)/i.test(contentType);

export interface FilePart {
  /** The name of the form field the file came in. */
  field: string;
  stream: Readable;
}

export interface FormLimits {
  files: number;
  fields: number;
  fieldSize: number;
}

type Form = Writable & EventEmitter;
type FormParser = new (options: { headers: IncomingHttpHeaders; limits: FormLimits }) => Form;
let Busboy: FormParser | undefined;

/**
 * The first file of a multipart form, streamed, with the name of its field;
 * undefined when the form (or the body) holds none. Fields before it are read
 * and dropped; parts after it are skipped. A form that does not parse (no
 * boundary) rejects; one cut short inside the file fails the file's stream
 * ("terminated early"): the caller checks `errored` and listens for "error". The parser (@fastify/busboy)
 * loads with the first form, not at start.
 */
export function firstFile(
  body: Readable,
  headers: IncomingHttpHeaders,
  limits: FormLimits,
): Promise<FilePart | undefined> {
  return new Promise((resolve, reject) => {
    let form: Form;
    try {
      Busboy ??= createRequire(import.meta.url)("@fastify/busboy") as FormParser;
      form = new Busboy({ headers, limits });
    } catch (error) {
      reject(error);
      return;
    }
    let file: Readable | undefined;
    let sawData = false;
    body.once("data", () => {
      sawData = true;
    });
    form.on("file", (field: string, stream: Readable) => {
      if (file !== undefined) {
        stream.resume();
        return;
      }
      file = stream;
      // busboy emits a cut-short form's error on the stream without destroying it, then ends it:
      // destroyed, the stream keeps that failure (`errored`) for a caller that comes after it.
      stream.on("error", (error) => {
        if (!stream.destroyed) stream.destroy(error);
      });
      resolve({ field, stream });
    });
    form.on("finish", () => {
      if (file === undefined) resolve(undefined);
    });
    form.on("error", (error: Error) => {
      if (file !== undefined) return;
      // An empty body is an empty form, not a broken one.
      if (!sawData && /Unexpected end of multipart data/.test(error.message)) resolve(undefined);
      else reject(error);
    });
    body.pipe(form);
  });
}
