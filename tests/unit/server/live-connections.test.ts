import { describe, expect, it } from "vitest";
import { ApiError } from "../../../server/errors.ts";
import { type LiveConnection, LiveConnections } from "../../../server/panel/live-connections.ts";
import { scratchShared } from "../../support/scratch-db.ts";

/** The three caps on open console sockets and SFTP sessions (issue 13 #4): per user, session, address. */
describe("LiveConnections caps", () => {
  const limits = { perUser: 5, perSession: 3, perAddress: 4 };
  // Places are counted in a real (SQLite) database, as the panel counts them; each test on a fresh one.
  const shared = scratchShared();
  const conn = (over: Partial<LiveConnection>): LiveConnection => ({
    kind: "console",
    userId: 1,
    sessionHash: "s1",
    serverId: "srv",
    address: "10.0.0.1",
    ...over,
  });
  const refusedFor = async (live: LiveConnections, c: LiveConnection) => {
    try {
      await live.reserve(c);
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect([(err as ApiError).status, (err as ApiError).code]).toEqual([429, "ErrTooManyConnections"]);
      return (err as ApiError).metadata;
    }
    throw new Error("not refused");
  };

  it("caps one session, while the same user's other session still connects", async () => {
    const live = new LiveConnections(limits, shared());
    for (let i = 0; i < 3; i++) await live.reserve(conn({ address: `10.0.1.${i}` }));
    expect(await refusedFor(live, conn({ address: "10.0.2.1" }))).toEqual({
      what: "for this session",
      limit: 3,
    });
    await live.reserve(conn({ sessionHash: "s2", address: "10.0.2.2" }));
  });

  it("caps one address over any users, while another address still connects", async () => {
    const live = new LiveConnections(limits, shared());
    for (let i = 0; i < 4; i++) await live.reserve(conn({ userId: 10 + i, sessionHash: `a${i}` }));
    expect(await refusedFor(live, conn({ userId: 20, sessionHash: "b" }))).toEqual({
      what: "from this address",
      limit: 4,
    });
    await live.reserve(conn({ userId: 20, sessionHash: "b", address: "10.9.9.9" }));
  });

  it("caps one user over sessions and addresses, and a released place is free again", async () => {
    const live = new LiveConnections(limits, shared());
    const held = [];
    for (let i = 0; i < 5; i++)
      held.push(await live.reserve(conn({ sessionHash: `u${i}`, address: `10.3.0.${i}` })));
    expect(await refusedFor(live, conn({ sessionHash: "u9", address: "10.3.0.9" }))).toEqual({
      what: "for this user",
      limit: 5,
    });
    held[0].release();
    held[0].release();
    await live.reserve(conn({ sessionHash: "u9", address: "10.3.0.9" }));
    expect((await refusedFor(live, conn({ sessionHash: "u10", address: "10.3.0.10" })))?.limit).toBe(5);
  });
});
