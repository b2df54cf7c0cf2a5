import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { Node, NodeCreateBody } from "../../api/nodes";

// The node form's state and the server's rules for it (reference §9.1), checked before sending.

export type FieldName = keyof NodeCreateBody;
export const FIELD_NAMES: readonly FieldName[] = [
  "name",
  "publicHost",
  "publicPort",
  "privateHost",
  "privatePort",
  "sftpPort",
];

/** What the inputs hold: text, so a half-typed port is not lost. */
export type NodeFormValues = Record<FieldName, string> & {
  /** The spec's "private" toggle: off means the panel reaches the node at its public address. */
  withPrivate: boolean;
};

export const emptyNodeForm = (): NodeFormValues => ({
  name: "",
  publicHost: "",
  publicPort: "8080",
  privateHost: "",
  privatePort: "8080",
  sftpPort: "5657",
  withPrivate: false,
});

export function formFromNode(n: Node): NodeFormValues {
  return {
    name: n.name,
    publicHost: n.publicHost,
    publicPort: String(n.publicPort),
    privateHost: n.privateHost,
    privatePort: String(n.privatePort),
    sftpPort: String(n.sftpPort),
    withPrivate: n.privateHost !== n.publicHost || n.privatePort !== n.publicPort,
  };
}

/** The body to send: ports as numbers, the private address mirrored from the public one when off. */
export function formToBody(v: NodeFormValues): NodeCreateBody {
  return {
    name: v.name.trim(),
    publicHost: v.publicHost.trim(),
    publicPort: toPort(v.publicPort),
    privateHost: (v.withPrivate ? v.privateHost : v.publicHost).trim(),
    privatePort: toPort(v.withPrivate ? v.privatePort : v.publicPort),
    sftpPort: toPort(v.sftpPort),
  };
}

const toPort = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s.trim()) : Number.NaN);

export const NAME_MAX = 100;
const HOST_MAX = 253;
const hostLabel = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

function isIPv6(v: string): boolean {
  if (!v.includes(":") || !/^[0-9A-Fa-f:.]+$/.test(v)) return false;
  try {
    return new URL(`http://[${v}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/** An IP address or a host name (an IPv4 address passes the host-name rule too, as on the server). */
export function isHost(v: string): boolean {
  if (isIPv6(v)) return true;
  if (!v || v.length > HOST_MAX) return false;
  return v
    .replace(/\.$/, "")
    .split(".")
    .every((label) => hostLabel.test(label));
}

export const isPort = (n: number) => Number.isInteger(n) && n >= 1 && n <= 65535;

/** A problem with one field, as the error catalogue's code and metadata (texts in errorMessages). */
export interface FieldProblem {
  code: string;
  values?: Record<string, unknown>;
}

export type FieldProblems = Partial<Record<FieldName, FieldProblem>>;

/** The same rules as the server, first problem per field. */
export function checkNodeForm(v: NodeFormValues): FieldProblems {
  const body = formToBody(v);
  const out: FieldProblems = {};
  if (!body.name) out.name = { code: "ErrFieldRequired" };
  else if (body.name.length > NAME_MAX)
    out.name = { code: "ErrFieldLength", values: { min: 1, max: NAME_MAX } };
  else if (/\p{Cc}/u.test(body.name)) out.name = { code: "ErrFieldMustBePrintable" };
  else if (/[/\\?#%]/.test(body.name)) out.name = { code: "ErrFieldHasURICharacters" };
  for (const f of ["publicHost", "privateHost"] as const) {
    if (!body[f]) out[f] = { code: "ErrFieldRequired" };
    else if (!isHost(body[f])) out[f] = { code: "ErrFieldIsInvalidHost" };
  }
  for (const f of ["publicPort", "privatePort", "sftpPort"] as const) {
    if (!isPort(body[f])) out[f] = { code: "ErrFieldNotBetween", values: { min: 1, max: 65535 } };
  }
  if (!out.sftpPort) {
    for (const other of ["publicPort", "privatePort"] as const) {
      if (body.sftpPort === body[other]) {
        out.sftpPort = { code: "ErrFieldEqual", values: { field1: "sftpPort", field2: other } };
        break;
      }
    }
  }
  // Mirrored fields are not on screen: their problem is the public field's.
  if (!v.withPrivate) {
    delete out.privateHost;
    delete out.privatePort;
  }
  return out;
}

/** Which field a server refusal is about (its metadata names it), if any. */
export function fieldOfError(
  code: string,
  metadata: Record<string, unknown> | undefined,
): FieldName | undefined {
  if (code === "ErrDuplicateNodeName") return "name";
  const named = metadata?.field ?? metadata?.field1;
  return typeof named === "string" && (FIELD_NAMES as readonly string[]).includes(named)
    ? (named as FieldName)
    : undefined;
}

export const FIELD_LABELS: Record<FieldName, MessageDescriptor> = {
  name: msg`Name`,
  publicHost: msg`Public host`,
  publicPort: msg`Public port`,
  privateHost: msg`Private host`,
  privatePort: msg`Private port`,
  sftpPort: msg`SFTP port`,
};
