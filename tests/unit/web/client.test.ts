import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { i18n } from "@lingui/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, get, getPublic, lastKnownAt, post, setErrorHandler } from "../../../src/api/client";
import type { ApiError } from "../../../src/api/errors";
import { online } from "../../../src/offline/network";
import { LAST_KNOWN_AT_HEADER } from "../../../src/offline/storage";
import { setToken } from "../../../src/state/token";

// The real client against a real HTTP server: headers it sends, errors it builds, exemptions.

interface Seen {
  method?: string;
  url?: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
let base = "";
let seen: Seen[] = [];
/** How many requests had arrived when the slow /rotate call was answered. */
let answeredRotation = -1;
const handled: ApiError[] = [];
/** Requests held until the test lets them go: they stand for requests sent while offline. */
let held: (() => void)[] = [];
const letGo = () => {
  for (const go of held) go();
  held = [];
};
let keptServed = 0;

beforeAll(async () => {
  // The client reads the XSRF cookie from document.cookie, as in the browser.
  (globalThis as { document?: unknown }).document = { cookie: "other=1; XSRF-TOKEN=tok%2Ben; x=y" };
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      const reply = (status: number, json?: unknown) => {
        res.writeHead(status, json === undefined ? {} : { "content-type": "application/json" });
        res.end(json === undefined ? undefined : JSON.stringify(json));
      };
      if (req.url === "/ok") return reply(200, { fine: true });
      if (req.url === "/rotate") {
        // Slow on purpose: the calls made meanwhile must wait for the rotation's answer.
        setTimeout(() => {
          answeredRotation = seen.length;
          reply(200, { scopes: [] });
        }, 150);
        return;
      }
      if (req.url === "/empty-401") return reply(401);
      // No HTTP answer at all, once let go: what a request sent offline ends in.
      if (req.url === "/unanswered") return void held.push(() => req.socket.destroy());
      // The service worker's last-known copy (offline), once let go; fresh answers after it.
      if (req.url === "/list") {
        if (keptServed++ > 0) return reply(200, { fresh: true });
        return void held.push(() => {
          res.writeHead(200, { "content-type": "application/json", [LAST_KNOWN_AT_HEADER]: "1000" });
          res.end(JSON.stringify({ fresh: false }));
        });
      }
      if (req.url === "/text") {
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        return res.end("plain words");
      }
      if (req.url === "/no-content") {
        res.writeHead(204);
        return res.end();
      }
      if (req.url === "/limited")
        return reply(429, { error: { code: "ErrTooManyAttempts", metadata: { retryAfter: 42 } } });
      return reply(404);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setErrorHandler((e) => handled.push(e));
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  delete (globalThis as { document?: unknown }).document;
  setToken(null);
});

beforeEach(() => {
  seen = [];
  held = [];
  keptServed = 0;
  handled.length = 0;
  setToken(null);
});

describe("API client", () => {
  it("sends the XSRF header on unsafe methods only", async () => {
    await post(`${base}/ok`, { a: 1 });
    await get(`${base}/ok`);
    expect(seen[0].headers["x-xsrf-token"]).toBe("tok+en");
    expect(JSON.parse(seen[0].body)).toEqual({ a: 1 });
    expect(seen[1].headers["x-xsrf-token"]).toBeUndefined();
  });

  it("adds a bearer token when one is stored", async () => {
    setToken("abc");
    await get(`${base}/ok`);
    expect(seen[0].headers.authorization).toBe("Bearer abc");
  });

  it("builds the error from the envelope, reports it, then throws", async () => {
    const err = (await call("POST", `${base}/limited`, { body: { email: "a@b.cd", password: "x" } }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(err).toMatchObject({ status: 429, code: "ErrTooManyAttempts", metadata: { retryAfter: 42 } });
    expect(err.request).toMatchObject({ method: "POST" });
    expect(handled).toEqual([err]);
  });

  it("an empty 401 is ErrUnknownError with status 401 (the handler turns it into session expiry)", async () => {
    await expect(get(`${base}/empty-401`)).rejects.toMatchObject({ status: 401, code: "ErrUnknownError" });
    expect(handled).toHaveLength(1);
  });

  it("holds other calls while the session cookie is being rotated, so none goes out with the old one", async () => {
    const rotation = call("POST", `${base}/rotate`, { rotatesSession: true });
    const meanwhile = get(`${base}/ok`);
    await Promise.all([rotation, meanwhile]);
    expect(seen.map((r) => r.url)).toEqual(["/rotate", "/ok"]);
    expect(answeredRotation).toBe(1);
    // Nothing pending: calls go straight out again.
    await get(`${base}/ok`);
    expect(seen).toHaveLength(3);
  });

  it("exempt statuses skip the handler but still throw", async () => {
    await expect(get(`${base}/missing`, { exempt: [404] })).rejects.toMatchObject({ status: 404 });
    await expect(get(`${base}/empty-401`, { exempt: true })).rejects.toMatchObject({ status: 401 });
    expect(handled).toHaveLength(0);
  });

  it("adds the query without its undefined values, and sends a string body as it is", async () => {
    // The test server answers 404 to any query; only what was sent matters here.
    await post(`${base}/ok?keep=1`, "say hello", {
      query: { page: 2, name: "a b", limit: undefined },
      exempt: true,
    }).catch(() => undefined);
    expect(seen[0].url).toBe("/ok?keep=1&page=2&name=a+b");
    expect(seen[0].body).toBe("say hello");
    expect(seen[0].headers["content-type"]).toBe("application/json");
  });

  it("reads JSON as data, text as text and no content as nothing", async () => {
    await expect(get(`${base}/ok`)).resolves.toEqual({ fine: true });
    await expect(get(`${base}/text`)).resolves.toBe("plain words");
    await expect(call("DELETE", `${base}/no-content`)).resolves.toBeUndefined();
  });

  it("no answer at all is an error without a status, reported to the handler", async () => {
    const err = (await get("http://127.0.0.1:1/nothing-listens").catch((e: unknown) => e)) as ApiError;
    expect(err).toMatchObject({ name: "ApiError", status: undefined, code: "ErrUnknownError" });
    expect(handled).toEqual([err]);
  });

  /** Waits until the test server holds `n` requests. */
  const holding = async (n: number) => {
    while (held.length < n) await new Promise((r) => setTimeout(r, 5));
  };

  it("a request left without an answer marks the panel offline; any answer marks it back online", async () => {
    await get(`${base}/ok`);
    expect(online.value).toBe(true);
    const failing = get(`${base}/unanswered`).catch((e: unknown) => e);
    await holding(1);
    letGo();
    expect(await failing).toMatchObject({ status: undefined });
    expect(online.value).toBe(false);
    await get(`${base}/ok`);
    expect(online.value).toBe(true);
  });

  it("a request sent offline that fails after the network came back does not mark the panel offline again", async () => {
    const offline = get("http://127.0.0.1:1/nothing-listens").catch(() => undefined);
    await offline;
    expect(online.value).toBe(false);
    const sentOffline = get(`${base}/unanswered`).catch((e: unknown) => e);
    await holding(1);
    // The network is back (an answer came) before the request sent offline ends without one.
    await get(`${base}/ok`);
    expect(online.value).toBe(true);
    letGo();
    expect(await sentOffline).toMatchObject({ status: undefined });
    expect(online.value).toBe(true);
  });

  it("a last-known copy that arrives after the network came back is asked for again, and the panel stays online", async () => {
    await get("http://127.0.0.1:1/nothing-listens").catch(() => undefined);
    expect(online.value).toBe(false);
    const sentOffline = get<{ fresh: boolean }>(`${base}/list`);
    await holding(1);
    await get(`${base}/ok`);
    expect(online.value).toBe(true);
    letGo();
    const answer = await sentOffline;
    expect(answer).toEqual({ fresh: true });
    expect(lastKnownAt(answer)).toBeUndefined();
    expect(online.value).toBe(true);
    expect(seen.filter((r) => r.url === "/list")).toHaveLength(2);
  });

  it("a last-known copy while still offline is shown as such", async () => {
    await get("http://127.0.0.1:1/nothing-listens").catch(() => undefined);
    const sentOffline = get<{ fresh: boolean }>(`${base}/list`);
    await holding(1);
    letGo();
    const answer = await sentOffline;
    expect(answer).toEqual({ fresh: false });
    expect(lastKnownAt(answer)).toBe(1000);
    expect(online.value).toBe(false);
    await get(`${base}/ok`);
  });

  it("sends the page's language, and keeps an Authorization the caller set", async () => {
    setToken("abc");
    i18n.loadAndActivate({ locale: "de_DE", messages: {} });
    try {
      await get(`${base}/ok`, { headers: { Authorization: "Bearer own" } });
    } finally {
      i18n.loadAndActivate({ locale: "en_US", messages: {} });
    }
    expect(seen[0].headers["accept-language"]).toBe("de-DE");
    expect(seen[0].headers.authorization).toBe("Bearer own");
  });

  describe("a public read before the HTTP library loads (getPublic)", () => {
    it("reads a JSON answer", async () => {
      await expect(getPublic(`${base}/ok`)).resolves.toEqual({ fine: true });
      expect(seen[0]).toMatchObject({ method: "GET", url: "/ok" });
    });

    it("an error status rejects without the handler, and proves the panel is reachable", async () => {
      await get("http://127.0.0.1:1/nothing-listens").catch(() => undefined);
      handled.length = 0;
      expect(online.value).toBe(false);
      await expect(getPublic(`${base}/limited`)).rejects.toThrow("HTTP 429");
      expect(handled).toHaveLength(0);
      expect(online.value).toBe(true);
    });

    it("no answer at all rejects and marks the panel offline", async () => {
      const failing = getPublic(`${base}/unanswered`).catch((e: unknown) => e);
      await holding(1);
      letGo();
      expect(await failing).toBeInstanceOf(Error);
      expect(handled).toHaveLength(0);
      expect(online.value).toBe(false);
      await get(`${base}/ok`);
    });
  });
});
