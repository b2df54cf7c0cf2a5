import net from "node:net";
import { ApiError, errors } from "../errors.ts";

/** The rules for a node's fields (reference §9.1). */
export interface NodeFields {
  name: string;
  publicHost: string;
  publicPort: number;
  privateHost: string;
  privatePort: number;
  sftpPort: number;
}

const hostLabel = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

export function isHost(value: string): boolean {
  if (net.isIP(value)) return true;
  if (value.length > 253) return false;
  return value
    .replace(/\.$/, "")
    .split(".")
    .every((label) => hostLabel.test(label));
}

export function checkNodeFields(fields: NodeFields): NodeFields {
  const name = fields.name.trim();
  if (!name) throw errors.fieldRequired("name");
  if (name.length > 100) throw errors.fieldLength("name", 1, 100);
  // Printable, and nothing that breaks a URL or a path.
  if (/[\p{Cc}/\\?#%]/u.test(name)) {
    throw new ApiError(400, "ErrFieldMustBePrintable", "${field} has characters that are not allowed", {
      field: "name",
    });
  }
  for (const field of ["publicHost", "privateHost"] as const) {
    if (!fields[field]) throw errors.fieldRequired(field);
    if (!isHost(fields[field])) {
      throw new ApiError(400, "ErrFieldIsInvalidHost", "${field} must be an IP address or a host name", {
        field,
      });
    }
  }
  for (const field of ["publicPort", "privatePort", "sftpPort"] as const) {
    const port = fields[field];
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new ApiError(400, "ErrFieldNotBetween", "${field} must be between ${min} and ${max}", {
        field,
        min: 1,
        max: 65535,
      });
    }
  }
  for (const other of ["publicPort", "privatePort"] as const) {
    if (fields.sftpPort === fields[other]) {
      throw new ApiError(400, "ErrFieldEqual", "${field1} must differ from ${field2}", {
        field1: "sftpPort",
        field2: other,
      });
    }
  }
  return { ...fields, name };
}
