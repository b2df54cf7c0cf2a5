import { describe, expect, it } from "vitest";
import { ApiError } from "../../../server/errors.ts";
import { NodeHttp } from "../../../server/link/node-http.ts";
import { freePort } from "../../support/free-port.ts";

// Errors keep their cause (DESIGN.md): a node that cannot be reached says why in the log's chain.
describe("an error keeps the error it stands for", () => {
  it("ErrNodeUnreachable carries the failed connection as its cause", async () => {
    const port = await freePort();
    const http = new NodeHttp(
      { nodeId: 3, secret: "s".repeat(64), baseUrl: `http://127.0.0.1:${port}` },
      2000,
    );
    const failure = await http.call("GET", "/daemon").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ code: "ErrNodeUnreachable", metadata: { node: 3 } });
    expect((failure as Error).cause).toBeInstanceOf(Error);
    // The client still gets the envelope only, never the cause.
    expect((failure as ApiError).toBody()).toEqual({
      error: { code: "ErrNodeUnreachable", msg: "node ${node} cannot be reached", metadata: { node: 3 } },
    });
  });
});
