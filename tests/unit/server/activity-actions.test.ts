import { describe, expect, it } from "vitest";
import { activityActions } from "../../../server/api/pipeline/activity-actions.ts";
import { redacted, withoutSecrets } from "../../../server/api/pipeline/activity-details.ts";
import { declaredAppRoutes } from "../../support/scratch-app.ts";

/** Every route that may change something (not GET, HEAD or OPTIONS), as "METHOD /url". */
async function writeRoutes(): Promise<string[]> {
  return (await declaredAppRoutes())
    .filter((r) => !["GET", "HEAD", "OPTIONS"].includes(r.method))
    .map((r) => `${r.method} ${r.url}`);
}

describe("the activity log's action table", () => {
  it("names every route that may change something, and nothing else", async () => {
    const routes = await writeRoutes();
    // A new write route is recorded as api.write until it is named in activity-actions.ts.
    expect(routes.filter((r) => !(r in activityActions))).toEqual([]);
    expect(Object.keys(activityActions).filter((r) => !routes.includes(r))).toEqual([]);
  });

  it("strips secrets by field name at any depth and bounds the rest", () => {
    const details = withoutSecrets({
      username: "ann",
      password: "p",
      newPassword: "p",
      nested: { client_secret: "s", token: "t", otpCode: "1", "panel.email.key": "k", fine: "yes" },
      long: "x".repeat(2000),
      list: Array.from({ length: 100 }, (_, i) => i),
    });
    expect(details).toMatchObject({ username: "ann", password: redacted, newPassword: redacted });
    expect(details.nested).toEqual({
      client_secret: redacted,
      token: redacted,
      otpCode: redacted,
      "panel.email.key": redacted,
      fine: "yes",
    });
    expect(String(details.long).length).toBeLessThan(600);
    expect((details.list as number[]).length).toBe(40);
  });
});
