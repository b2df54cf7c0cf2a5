import { describe, expect, it } from "vitest";
import {
  type KnownStatus,
  type KnownStatuses,
  mergeKnown,
  validKnown,
} from "../../../src/offline/knownStatus";

// The kept copy of the servers' last known statuses (issue 25): how a batch of deliveries joins it.

describe("the last known statuses kept for offline", () => {
  it("takes the newest delivery of each server and keeps the others", () => {
    const kept: KnownStatuses = {
      a: { status: "online", stats: { cpu: 3, memory: 4 }, at: 1 },
      b: { status: "offline", at: 2 },
    };
    const batch = new Map<string, KnownStatus>([["a", { status: "offline", at: 5 }]]);
    expect(mergeKnown(kept, batch)).toEqual({
      a: { status: "offline", at: 5 },
      b: { status: "offline", at: 2 },
    });
  });

  it("drops the longest unheard servers past the limit", () => {
    const kept: KnownStatuses = {
      old: { status: "offline", at: 1 },
      mid: { status: "offline", at: 2 },
    };
    const batch = new Map<string, KnownStatus>([["new", { status: "online", at: 3 }]]);
    expect(Object.keys(mergeKnown(kept, batch, 2)).sort()).toEqual(["mid", "new"]);
  });

  it("leaves out entries of another shape (an older version's or a foreign one)", () => {
    const odd = {
      ok: { status: "installing", at: 7 },
      noTime: { status: "online" },
      noStatus: { at: 3 },
      empty: null,
    } as unknown as KnownStatuses;
    expect(validKnown(odd)).toEqual({ ok: { status: "installing", at: 7 } });
    expect(mergeKnown(odd, new Map())).toEqual({ ok: { status: "installing", at: 7 } });
    expect(validKnown(undefined)).toEqual({});
  });
});
