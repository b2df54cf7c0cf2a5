import { brotliCompressSync, gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../support/file-requests.ts";
import type { PanelClient } from "../support/http-client.ts";
import { adminClient, usePanel } from "../support/test-panel.ts";

describe("request bodies sent compressed", () => {
  const panel = usePanel();
  let api: PanelClient;
  beforeAll(async () => {
    api = await adminClient(panel());
  });
  const post = (body: Buffer | string, encoding: string) =>
    rawRequest(api, "POST", "/api/settings", {
      body,
      headers: { "content-type": "application/json", "content-encoding": encoding },
    });
  const companyName = async () =>
    (await api.get("/api/settings/panel.settings.companyName")).body.value as string;

  it("are read decompressed with gzip or br", async () => {
    for (const [encoding, pack] of [
      ["gzip", gzipSync],
      ["br", brotliCompressSync],
    ] as const) {
      const name = `Packed ${encoding} Games`;
      const res = await post(pack(JSON.stringify({ "panel.settings.companyName": name })), encoding);
      expect(res.status, res.text).toBe(204);
      expect(await companyName()).toBe(name);
    }
  });

  it("are refused with 415 in another encoding, and 400 when they do not decompress", async () => {
    const before = await companyName();
    const unknown = await post(JSON.stringify({ "panel.settings.companyName": "Never" }), "compress");
    expect(unknown.status).toBe(415);
    expect(unknown.json.error.code).toBe("ErrUnsupportedEncoding");
    const broken = await post("not gzip at all", "gzip");
    expect(broken.status).toBe(400);
    expect(broken.json.error.code).toBe("ErrBadRequest");
    expect(await companyName()).toBe(before);
  });
});
