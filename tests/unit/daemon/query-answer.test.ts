import { describe, expect, it } from "vitest";
import { knowsQueryType } from "../../../server/daemon/query/gamedig-client.ts";
import { queryAnswer } from "../../../server/daemon/query/query-answer.ts";

/** What gamedig 5 answered for the Debian OpenTTD dedicated server (trimmed of `raw`). */
const openttd = {
  name: "Outpost OpenTTD",
  map: "",
  password: false,
  version: "13.0",
  maxplayers: 7,
  numplayers: 0,
  players: [],
  bots: [],
  queryPort: 39911,
  connect: "127.0.0.1:39911",
  ping: 4,
};

describe("a gamedig result as the query's answer", () => {
  it("counts, versions and names a server, leaving out what is unknown", () => {
    expect(queryAnswer("openttd", openttd)).toEqual({
      numPlayers: 0,
      maxPlayers: 7,
      version: "13.0",
      players: null,
      name: "Outpost OpenTTD",
    });
    expect(queryAnswer("valheim", { ...openttd, map: " Dedicated ", players: [{ name: "Ragnar" }] })).toEqual(
      {
        numPlayers: 0,
        maxPlayers: 7,
        version: "13.0",
        players: ["Ragnar"],
        name: "Outpost OpenTTD",
        map: "Dedicated",
      },
    );
  });

  it("keeps minecraft to the reference's four fields", () => {
    const answer = queryAnswer("minecraft", {
      name: "A fake world",
      map: "",
      version: "1.21.4",
      numplayers: 2,
      maxplayers: 20,
      players: [{ name: "Alex" }, { name: "Steve" }],
    });
    expect(answer).toEqual({ numPlayers: 2, maxPlayers: 20, version: "1.21.4", players: ["Alex", "Steve"] });
    expect(Object.keys(answer)).toEqual(["numPlayers", "maxPlayers", "version", "players"]);
  });

  it("leaves out unnamed players and counts names when the protocol gives no count", () => {
    expect(queryAnswer("protocol-valve", { players: [{ name: "" }, { name: "Gordon" }, {}] })).toEqual({
      numPlayers: 1,
      maxPlayers: 0,
      version: "",
      players: ["Gordon"],
    });
    // A count says more than the names: servers list only some of their players (Minecraft's sample).
    expect(
      queryAnswer("minecraft", { numplayers: 50, maxplayers: 100, players: [{ name: "Alex" }] }),
    ).toEqual({
      numPlayers: 50,
      maxPlayers: 100,
      version: "",
      players: ["Alex"],
    });
    expect(queryAnswer("openttd", { numplayers: Number.NaN, maxplayers: -1 })).toMatchObject({
      numPlayers: 0,
      maxPlayers: 0,
    });
  });
});

describe("the query types a node can ask", () => {
  it("knows gamedig's games, their gamedig 4 names and bare protocols, and nothing else", async () => {
    for (const type of ["minecraft", "openttd", "valheim", "ase", "arkse", "protocol-valve"]) {
      expect(await knowsQueryType(type), type).toBe(true);
    }
    for (const type of ["no-such-game", "protocol-nothing", "constructor", "__proto__", ""]) {
      expect(await knowsQueryType(type), type).toBe(false);
    }
  });
});
