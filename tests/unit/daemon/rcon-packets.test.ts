import { describe, expect, it } from "vitest";
import { decodeRconPackets, encodeRconPacket, rconTypes } from "../../../server/daemon/rcon/rcon-client.ts";

describe("Source RCON packets", () => {
  it("encodes size, id, type and a NUL-terminated body with the empty string after it", () => {
    const packet = encodeRconPacket({ id: 7, type: rconTypes.exec, body: "say hi" });
    expect(packet.readInt32LE(0)).toBe(10 + 6);
    expect(packet.readInt32LE(4)).toBe(7);
    expect(packet.readInt32LE(8)).toBe(2);
    expect(packet.subarray(12).toString("latin1")).toBe("say hi\0\0");
  });

  it("takes whole packets off a stream and keeps a partial one for later", () => {
    const a = encodeRconPacket({ id: 1, type: rconTypes.response, body: "" });
    const b = encodeRconPacket({
      id: 2,
      type: rconTypes.response,
      body: "There are 2 of a max of 20 players",
    });
    const stream = Buffer.concat([a, b]);
    const first = decodeRconPackets(stream.subarray(0, a.length + 5));
    expect(first.packets).toEqual([{ id: 1, type: 0, body: "" }]);
    const second = decodeRconPackets(Buffer.concat([first.rest, stream.subarray(a.length + 5)]));
    expect(second.packets).toEqual([{ id: 2, type: 0, body: "There are 2 of a max of 20 players" }]);
    expect(second.rest.length).toBe(0);
  });

  it("refuses a size no RCON packet has", () => {
    const bad = Buffer.alloc(14);
    bad.writeInt32LE(1 << 20, 0);
    expect(() => decodeRconPackets(bad)).toThrow(/bytes/);
  });
});
