import { describe, expect, it } from "vitest";
import { newUser } from "../support/expect-api.ts";
import { adminClient, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

describe("headers of every /api answer", () => {
  const panel = usePanel();

  it("carry Cache-Control: no-store and the API version, whatever the status", async () => {
    const anonymous = new PanelClient(panel().url);
    const plain = await registeredClient(panel(), newUser("plain"));
    const api = await adminClient(panel());
    const answers = [
      await anonymous.get("/api/config"),
      await anonymous.get("/api/config?x=1"),
      await anonymous.get("/api/self"),
      await plain.get("/api/settings/panel.settings.companyName"),
      await anonymous.get("/api/unknown"),
      await api.get("/api/self"),
      await api.put("/api/userSettings/theme", { value: "x" }),
      await api.put("/api/userSettings/theme", { value: 1 }),
      await api.put("/api/userSettings/theme", { value: "x" }, { xsrf: false }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 403, 404, 200, 204, 400, 403]);
    for (const res of answers) {
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-api-version")).toBeTruthy();
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });
});
