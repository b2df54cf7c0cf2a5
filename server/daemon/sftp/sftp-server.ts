import type { AddressInfo, Socket } from "node:net";
import type { AuthContext, Connection, Server, utils as SshUtils } from "ssh2";
import type { NodeActivity } from "../../contract/node/node-events.ts";
import { parseSftpUsername } from "../../contract/node/sftp-username.ts";
import type { Sandbox } from "../sandbox/index.ts";
import type { DiskLedger } from "../servers/disk-ledger.ts";
import { ConnectionGate, defaultGateLimits, type GateLimits } from "./connection-gate.ts";
import { type HostKey, loadOrCreateHostKey } from "./host-key.ts";
import { SftpSession } from "./session.ts";

/** Who asks to sign in: `<email>#<serverId>` split, the password or public key, and where from. */
export interface SftpLogin {
  email: string;
  serverId: string;
  password?: string;
  /**
   * A key sign-in: the key as an OpenSSH line, its signature already checked here, or (with
   * `probe`) only offered, as SSH clients ask which key would do before they sign.
   */
  publicKey?: string;
  /** Only asks whether the key would be let in: no session follows this answer. */
  probe?: boolean;
  address: string;
}

/**
 * Whether a login may use SFTP on that server of this node: the panel's
 * rules, asked in-process on the local node and over HTTP on a remote one.
 * Answers false for every refusal (throttled, unknown user, wrong password,
 * no `server.sftp`, a server elsewhere); it decides alone what to count.
 */
export type SftpAuthorizer = (login: SftpLogin) => Promise<false | SftpGrant>;

/** An accepted sign-in: what the session may do, and how its end is followed. */
export interface SftpGrant {
  /** Whether the session may change files (`server.files.edit`); without it, it is read-only. */
  write: boolean;
  /** The panel's user behind the sign-in, named in the activity log. */
  userId?: number;
  /**
   * For a sign-in whose rights the panel may take back (sign-out, removal
   * from the server, deletion of the user): given the way to end the session,
   * answers what to call once it has ended.
   */
  watch?(end: () => void): () => void;
}

export interface SftpListenerOptions {
  host: string;
  port: number;
  /** The node's data folder, where the host key is kept. */
  dataDir: string;
  authorize: SftpAuthorizer;
  /** The sandbox of a server of this node, or undefined when it has none by that id. */
  sandboxOf: (serverId: string) => Sandbox | undefined;
  /** A server's disk use and limit, whose room SFTP writes share with the rest. */
  diskOf?: (serverId: string) => DiskLedger | undefined;
  log: { info(msg: string): void; warn(msg: string): void };
  /** Caps on connections and the time to sign in (defaults: defaultGateLimits). */
  limits?: Partial<GateLimits>;
  /** Told of every change a session makes (the node's activity events). */
  onActivity?: (activity: NodeActivity) => void;
}

/** Failed sign-ins one connection may make before it is dropped (OpenSSH's MaxAuthTries). */
const maxAuthTries = 6;

/** The sign-in methods offered, in the order clients should try them. */
const methods: AuthContext["method"][] = ["publickey", "password"];

/**
 * A node's SFTP server (reference §8): sign-in as `<email>#<serverId>` with the
 * panel password or one of the account's SSH keys (issue 39: the signature is
 * checked here, whether the key is the account's is the panel's to say), then
 * only the `sftp` subsystem, confined to that server's folder. Shells,
 * commands, port forwarding and agent forwarding are refused.
 */
export class SftpListener {
  /** The SSH server, made with the first connection: ssh2 is not loaded before (issue 12). */
  private server: Promise<Server> | undefined;
  private hostKey: HostKey | undefined;
  /** ssh2's key parser, loaded with the SSH server. */
  private sshUtils: typeof SshUtils | undefined;
  private readonly gate: ConnectionGate;
  private readonly connections = new Set<Connection>();

  constructor(private readonly options: SftpListenerOptions) {
    // The gate listens and hands the connections it admits to the SSH server.
    this.gate = new ConnectionGate({ ...defaultGateLimits, ...options.limits }, (socket) =>
      this.pass(socket),
    );
    this.gate.server.on("error", (error: Error) => options.log.warn(`SFTP listener: ${error.message}`));
  }

  /** `SHA256:…` of the host key, once listening. */
  get fingerprint(): string | undefined {
    return this.hostKey?.fingerprint;
  }

  /** Reads (or makes) the host key, then listens; rejects when the address cannot be taken (a port in use). */
  async listen(): Promise<AddressInfo> {
    this.hostKey = await loadOrCreateHostKey(this.options.dataDir);
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      this.gate.server.once("error", failed);
      this.gate.server.listen(this.options.port, this.options.host, () => {
        this.gate.server.off("error", failed);
        resolve(this.gate.server.address() as AddressInfo);
      });
    });
  }

  /** Stops accepting and ends every open session (their open files are closed with them). */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => {
      if (!this.gate.server.listening) resolve();
      else this.gate.server.close(() => resolve());
    });
    for (const client of this.connections) client.end();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, 3000).unref());
    await Promise.race([closed, timeout]);
  }

  private pass(socket: Socket): void {
    this.server ??= this.sshServer();
    this.server.then(
      (server) => server.injectSocket(socket),
      (error: Error) => {
        this.options.log.warn(`SFTP listener: ${error.message}`);
        socket.destroy();
      },
    );
  }

  private async sshServer(): Promise<Server> {
    const { default: ssh2 } = await import("ssh2");
    this.sshUtils = ssh2.utils;
    const hostKey = this.hostKey?.key;
    if (!hostKey) throw new Error("no host key");
    const server = new ssh2.Server({ hostKeys: [hostKey], ident: "Outpost" }, (client, info) =>
      this.accept(client, info.ip, info.port),
    );
    server.on("error", (error: Error) => this.options.log.warn(`SFTP listener: ${error.message}`));
    return server;
  }

  private accept(client: Connection, address: string, port: number): void {
    this.connections.add(client);
    client.on("close", () => this.connections.delete(client));
    // A reset or malformed connection is that client's problem, never the process's.
    client.on("error", () => {});
    let serverId: string | undefined;
    let write = false;
    let actor: { kind: "sftp"; name: string; userId?: number } | undefined;
    let failures = 0;

    client.on("authentication", (ctx) => {
      const login = parseSftpUsername(ctx.username);
      const asked: SftpLogin = {
        email: login?.email ?? ctx.username,
        serverId: login?.serverId ?? "",
        address,
      };
      if (ctx.method === "password") asked.password = ctx.password;
      else if (ctx.method === "publickey") {
        const key = this.sshUtils?.parseKey(ctx.key.data);
        if (!key || key instanceof Error) {
          ctx.reject(methods);
          return;
        }
        asked.publicKey = `${key.type} ${ctx.key.data.toString("base64")}`;
        if (!ctx.signature || !ctx.blob) asked.probe = true;
        else if (key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) {
          ctx.reject(methods);
          if (++failures >= maxAuthTries) client.end();
          return;
        }
      } else {
        ctx.reject(methods);
        return;
      }
      // An unparsable name costs the same check as any other, so that
      // refusals cannot be told apart by their timing.
      this.options
        .authorize(asked)
        .catch((error): false => {
          this.options.log.warn(`SFTP sign-in check failed: ${(error as Error).message}`);
          return false;
        })
        .then((allowed) => {
          const admitted = !!allowed && !!login && !!this.options.sandboxOf(login.serverId);
          if (asked.probe) {
            // The client signs next, and that sign-in is the one told; a refused key is only skipped.
            if (admitted) ctx.accept();
            else ctx.reject(methods);
            return;
          }
          // Every sign-in, done or refused, is the node's to tell (the panel keeps those for its servers).
          this.options.onActivity?.({
            at: Date.now(),
            serverId: login?.serverId ?? "",
            actor: { kind: "sftp", name: login?.email ?? ctx.username.slice(0, 255) },
            address,
            action: admitted ? "auth.sftp" : "auth.sftp.failed",
            ok: admitted,
            subject: "",
            details: { method: ctx.method },
          });
          if (allowed && login && this.options.sandboxOf(login.serverId)) {
            serverId = login.serverId;
            write = allowed.write === true;
            actor = { kind: "sftp", name: login.email, userId: allowed.userId };
            if (allowed.watch)
              client.once(
                "close",
                allowed.watch(() => client.end()),
              );
            ctx.accept();
            return;
          }
          this.options.log.info(`SFTP sign-in refused for ${JSON.stringify(ctx.username)} from ${address}`);
          ctx.reject(methods);
          if (++failures >= maxAuthTries) client.end();
        });
    });

    client.on("ready", () => {
      this.gate.signedIn(address, port);
      client.on("session", (acceptSession) => {
        const session = acceptSession();
        session.on("sftp", (acceptSftp, reject) => {
          const id = serverId;
          const sandbox = id === undefined ? undefined : this.options.sandboxOf(id);
          if (id === undefined || !sandbox) {
            reject();
            return;
          }
          const disk = this.options.diskOf?.(id);
          const who = actor ?? { kind: "sftp", name: "" };
          const record = (action: string, subject: string, details: Record<string, unknown> = {}) =>
            this.options.onActivity?.({
              at: Date.now(),
              serverId: id,
              actor: who,
              address,
              action,
              ok: true,
              subject,
              details,
            });
          new SftpSession(acceptSftp(), sandbox, (msg) => this.options.log.warn(msg), {
            disk,
            write,
            record,
          });
        });
        session.on("shell", (_accept, reject) => reject());
        session.on("exec", (_accept, reject) => reject());
        session.on("subsystem", (_accept, reject) => reject());
        session.on("pty", (_accept, reject) => reject?.());
        session.on("x11", (_accept, reject) => reject?.());
        session.on("auth-agent", (_accept, reject) => reject?.());
      });
      client.on("tcpip", (_accept, reject) => reject());
      client.on("openssh.streamlocal", (_accept, reject) => reject());
      client.on("request", (_accept, reject) => reject?.());
    });
  }
}
