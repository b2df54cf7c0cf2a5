import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import ssh2, { type Attributes, type Connection, type SFTPWrapper } from "ssh2";

const { STATUS_CODE } = ssh2.utils.sftp;

export interface WingsSftp {
  port: number;
  /** Requests that would have changed something there (none is answered but with a refusal). */
  writes: string[];
  /** Logins refused (wrong user, wrong password, a server that is not there). */
  refused: string[];
  close(): Promise<void>;
}

const attrsOf = (stats: fs.Stats): Attributes => ({
  mode: stats.mode,
  uid: stats.uid,
  gid: stats.gid,
  size: stats.size,
  atime: Math.floor(stats.atimeMs / 1000),
  mtime: Math.floor(stats.mtimeMs / 1000),
});

/**
 * A Wings node's SFTP as the import meets it (Wings itself cannot run here): `<user>.<short id>`
 * with the old panel's password, the server's volume (`<volumes>/<uuid>`) as `/`. It answers
 * what a reading client asks (realpath, stat, listings, reads) over a real SSH connection, made
 * by ssh2 as the daemon's SFTP is; whatever would write is refused and noted.
 */
export async function startWingsSftp(
  volumes: string,
  login: { username: string; password: string },
  uuidOf: (shortId: string) => string,
): Promise<WingsSftp> {
  const hostKey = ssh2.utils.generateKeyPairSync("ed25519").private;
  const writes: string[] = [];
  const refused: string[] = [];
  const server = new ssh2.Server({ hostKeys: [hostKey] }, (client: Connection) => {
    let root: string | undefined;
    client.on("authentication", (ctx) => {
      const [user, shortId] = ctx.username.split(".");
      const folder = shortId ? path.join(volumes, uuidOf(shortId)) : "";
      if (
        ctx.method === "password" &&
        user === login.username &&
        ctx.password === login.password &&
        folder &&
        fs.existsSync(folder)
      ) {
        root = folder;
        ctx.accept();
        return;
      }
      if (ctx.method === "password") refused.push(ctx.username);
      ctx.reject(["password"]);
    });
    client.on("error", () => {});
    client.on("session", (accept) => {
      accept().on("sftp", (acceptSftp) => serve(acceptSftp(), root as string, writes));
    });
  });
  // Below 32768: Pelican keeps a node's SFTP port in a smallint (PostgreSQL refuses more), so
  // the kernel's ephemeral ports will not do. Another process may hold the one drawn: draw again.
  for (let attempt = 0; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const listening = await new Promise<boolean>((resolve) => {
      const taken = () => resolve(false);
      server.once("error", taken);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", taken);
        resolve(true);
      });
    });
    if (listening) break;
    if (attempt >= 50) throw new Error("no free port under 32768 for the Wings SFTP stand-in");
  }
  return {
    port: (server.address() as AddressInfo).port,
    writes,
    refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function serve(sftp: SFTPWrapper, root: string, writes: string[]): void {
  const handles = new Map<number, { fd?: number; dir?: string; listed?: boolean }>();
  let next = 0;
  const local = (wanted: string) => path.join(root, path.posix.normalize(`/${wanted}`));
  const handle = (value: { fd?: number; dir?: string }) => {
    next += 1;
    handles.set(next, value);
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(next);
    return buffer;
  };
  const of = (buffer: Buffer) => handles.get(buffer.readUInt32BE(0));
  sftp.on("REALPATH", (id, wanted) => {
    const name = path.posix.normalize(`/${wanted}`);
    sftp.name(id, [{ filename: name, longname: name, attrs: {} as Attributes }]);
  });
  for (const kind of ["STAT", "LSTAT"] as const)
    sftp.on(kind, (id: number, wanted: string) => {
      const stats = fs.statSync(local(wanted), { throwIfNoEntry: false });
      if (stats) sftp.attrs(id, attrsOf(stats));
      else sftp.status(id, STATUS_CODE.NO_SUCH_FILE);
    });
  sftp.on("OPENDIR", (id, wanted) => {
    const dir = local(wanted);
    if (fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) sftp.handle(id, handle({ dir }));
    else sftp.status(id, STATUS_CODE.NO_SUCH_FILE);
  });
  sftp.on("READDIR", (id, raw) => {
    const open = of(raw);
    if (!open?.dir) return sftp.status(id, STATUS_CODE.FAILURE);
    if (open.listed) return sftp.status(id, STATUS_CODE.EOF);
    open.listed = true;
    const dir = open.dir;
    sftp.name(
      id,
      fs.readdirSync(dir).map((name) => ({
        filename: name,
        longname: name,
        attrs: attrsOf(fs.lstatSync(path.join(dir, name))),
      })),
    );
  });
  sftp.on("OPEN", (id, wanted, flags) => {
    if (flags & ~ssh2.utils.sftp.OPEN_MODE.READ) {
      writes.push(`OPEN ${wanted}`);
      return sftp.status(id, STATUS_CODE.PERMISSION_DENIED);
    }
    const file = local(wanted);
    if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile())
      return sftp.status(id, STATUS_CODE.NO_SUCH_FILE);
    sftp.handle(id, handle({ fd: fs.openSync(file, "r") }));
  });
  sftp.on("FSTAT", (id, raw) => {
    const open = of(raw);
    if (open?.fd === undefined) return sftp.status(id, STATUS_CODE.FAILURE);
    sftp.attrs(id, attrsOf(fs.fstatSync(open.fd)));
  });
  sftp.on("READ", (id, raw, offset, length) => {
    const open = of(raw);
    if (open?.fd === undefined) return sftp.status(id, STATUS_CODE.FAILURE);
    const buffer = Buffer.alloc(length);
    const read = fs.readSync(open.fd, buffer, 0, length, offset);
    if (read === 0) sftp.status(id, STATUS_CODE.EOF);
    else sftp.data(id, buffer.subarray(0, read));
  });
  sftp.on("CLOSE", (id, raw) => {
    const open = of(raw);
    if (open?.fd !== undefined) fs.closeSync(open.fd);
    handles.delete(raw.readUInt32BE(0));
    sftp.status(id, STATUS_CODE.OK);
  });
  for (const kind of ["WRITE", "SETSTAT", "FSETSTAT", "REMOVE", "RMDIR", "MKDIR", "RENAME", "SYMLINK"])
    sftp.on(kind, (id: number, what: unknown) => {
      writes.push(`${kind} ${typeof what === "string" ? what : ""}`);
      sftp.status(id, STATUS_CODE.PERMISSION_DENIED);
    });
}
