import { describe, expect, it } from "vitest";
import { PanelClient } from "../support/http-client.ts";
import { usePanel } from "../support/test-panel.ts";

/** GET /api/health: what a load balancer asks each panel (docs/scale-out.md). */
describe("GET /api/health", () => {
  const panel = usePanel();

  it("answers 200 and a tiny body to anyone, with no sign-in, cookie or XSRF header", async () => {
    const res = await new PanelClient(panel().url).get("/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ database: "ok" });
    expect(res.text.length).toBeLessThan(40);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await new PanelClient(panel().url).call("HEAD", "/api/health")).status).toBe(200);
  });
});
