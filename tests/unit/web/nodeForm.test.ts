import { describe, expect, it } from "vitest";
import {
  checkNodeForm,
  emptyNodeForm,
  fieldOfError,
  formFromNode,
  formToBody,
  isHost,
  type NodeFormValues,
} from "../../../src/screens/nodes/nodeForm";

// The node form checks what the server checks (server/panel/node-rules.ts) before sending.

const filled = (change: Partial<NodeFormValues> = {}): NodeFormValues => ({
  ...emptyNodeForm(),
  name: "node1",
  publicHost: "play.example.com",
  publicPort: "8080",
  sftpPort: "5657",
  ...change,
});

describe("node form", () => {
  it("sends ports as numbers and mirrors the public address while the private toggle is off", () => {
    const body = formToBody(filled({ privateHost: "10.0.0.5", privatePort: "9000" }));
    expect(body).toEqual({
      name: "node1",
      publicHost: "play.example.com",
      publicPort: 8080,
      privateHost: "play.example.com",
      privatePort: 8080,
      sftpPort: 5657,
    });
    const withPrivate = formToBody(
      filled({ withPrivate: true, privateHost: " 10.0.0.5 ", privatePort: "9000" }),
    );
    expect(withPrivate.privateHost).toBe("10.0.0.5");
    expect(withPrivate.privatePort).toBe(9000);
  });

  it("turns the toggle on for a node whose private address differs", () => {
    const node = {
      id: 3,
      name: "n",
      publicHost: "a.example",
      publicPort: 80,
      privateHost: "a.example",
      privatePort: 80,
      sftpPort: 22,
      isLocal: false,
      reachable: true,
    };
    expect(formFromNode(node).withPrivate).toBe(false);
    expect(formFromNode({ ...node, privatePort: 81 }).withPrivate).toBe(true);
    expect(formFromNode({ ...node, privateHost: "10.0.0.1" }).withPrivate).toBe(true);
  });

  it("accepts a valid node", () => {
    expect(checkNodeForm(filled())).toEqual({});
    expect(checkNodeForm(filled({ withPrivate: true, privateHost: "::1", privatePort: "9000" }))).toEqual({});
  });

  it("refuses what the server refuses, one problem per field", () => {
    expect(checkNodeForm(filled({ name: "  " })).name?.code).toBe("ErrFieldRequired");
    expect(checkNodeForm(filled({ name: "a/b" })).name?.code).toBe("ErrFieldHasURICharacters");
    expect(checkNodeForm(filled({ name: "a\u0007b" })).name?.code).toBe("ErrFieldMustBePrintable");
    expect(checkNodeForm(filled({ name: "x".repeat(101) })).name?.code).toBe("ErrFieldLength");
    expect(checkNodeForm(filled({ publicHost: "" })).publicHost?.code).toBe("ErrFieldRequired");
    expect(checkNodeForm(filled({ publicHost: "bad host" })).publicHost?.code).toBe("ErrFieldIsInvalidHost");
    expect(checkNodeForm(filled({ publicPort: "0" })).publicPort?.code).toBe("ErrFieldNotBetween");
    expect(checkNodeForm(filled({ publicPort: "65536" })).publicPort?.code).toBe("ErrFieldNotBetween");
    expect(checkNodeForm(filled({ publicPort: "80a" })).publicPort?.code).toBe("ErrFieldNotBetween");
    expect(checkNodeForm(filled({ sftpPort: "8080" })).sftpPort).toEqual({
      code: "ErrFieldEqual",
      values: { field1: "sftpPort", field2: "publicPort" },
    });
    const priv = filled({ withPrivate: true, privateHost: "10.0.0.5", privatePort: "5657" });
    expect(checkNodeForm(priv).sftpPort?.values?.field2).toBe("privatePort");
  });

  it("does not blame the hidden private fields while the toggle is off", () => {
    const problems = checkNodeForm(filled({ publicHost: "-bad-", privatePort: "x" }));
    expect(Object.keys(problems)).toEqual(["publicHost"]);
  });

  it("knows host names and IP addresses", () => {
    for (const ok of ["127.0.0.1", "example.com", "example.com.", "a-b.c", "::1", "2001:db8::5", "localhost"])
      expect(isHost(ok), ok).toBe(true);
    for (const bad of ["", "-a.com", "a..b", "exa mple.com", "a_b.com", "http://x", "x".repeat(254), "[::1]"])
      expect(isHost(bad), bad).toBe(false);
  });

  it("finds the field a server refusal names", () => {
    expect(fieldOfError("ErrFieldIsInvalidHost", { field: "privateHost" })).toBe("privateHost");
    expect(fieldOfError("ErrFieldEqual", { field1: "sftpPort", field2: "publicPort" })).toBe("sftpPort");
    expect(fieldOfError("ErrDuplicateNodeName", { name: "x" })).toBe("name");
    expect(fieldOfError("ErrFieldRequired", { field: "secret" })).toBeUndefined();
    expect(fieldOfError("ErrNodeHasServers", undefined)).toBeUndefined();
  });
});
