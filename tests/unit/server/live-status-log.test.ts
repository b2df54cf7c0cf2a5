import { describe, expect, it } from "vitest";
import { ApiError } from "../../../server/errors.ts";
import { LiveStatus } from "../../../server/panel/live-status.ts";

describe("live status, when a server's node cannot be reached", () => {
  it("logs the reason with its placeholders filled (issue 41: 'node ${node} cannot be reached')", async () => {
    const said: string[] = [];
    const unreachable = new ApiError(502, "ErrNodeUnreachable", "node ${node} cannot be reached", {
      node: 3,
    });
    const status = new LiveStatus(
      () => Promise.reject(unreachable),
      (msg) => said.push(msg),
      60_000,
    );
    const frames: string[] = [];
    const stop = status.watch("a1b2c3d4", {
      status: true,
      stats: false,
      send: (frame) => frames.push(String(frame)),
    });
    await new Promise((r) => setTimeout(r, 20));
    stop();
    expect(said).toEqual(["live status of server a1b2c3d4 not available: node 3 cannot be reached"]);
    expect(frames.join("")).toContain("a1b2c3d4");
  });
});
