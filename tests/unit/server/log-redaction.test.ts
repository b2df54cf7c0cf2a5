import { describe, expect, it } from "vitest";
import { redactUrl } from "../../../server/http/log-redaction.ts";

describe("redactUrl", () => {
  it("withholds the values of query parameters named like secrets, and keeps the rest", () => {
    expect(redactUrl("/auth/invite?token=abc&email=a%40b.c")).toBe(
      "/auth/invite?token=[redacted]&email=a%40b.c",
    );
    expect(redactUrl("/oauth2/token?client_secret=s&grant_type=x&code=c")).toBe(
      "/oauth2/token?client_secret=[redacted]&grant_type=x&code=[redacted]",
    );
    expect(redactUrl("/x?Pass%77ord=p&access%5Ftoken=t")).toBe(
      "/x?Pass%77ord=[redacted]&access%5Ftoken=[redacted]",
    );
    expect(redactUrl("/api/servers/1/file/a.txt?raw=true")).toBe("/api/servers/1/file/a.txt?raw=true");
    expect(redactUrl("/api/self")).toBe("/api/self");
  });
});
