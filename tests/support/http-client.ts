/**
 * A small HTTP client that behaves like a browser towards the panel: it keeps
 * cookies, and echoes the XSRF-TOKEN cookie in X-XSRF-TOKEN on unsafe calls
 * (unless told not to), so tests can act as a user — or as an attacker.
 */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  setCookies: string[];
}

export interface CallOptions {
  json?: unknown;
  form?: Record<string, string>;
  raw?: string;
  headers?: Record<string, string>;
  bearer?: string;
  xsrf?: boolean;
}

export class PanelClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  async call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(opts.form).toString();
    } else if (opts.raw !== undefined) {
      body = opts.raw;
    }
    if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const unsafe = !["GET", "HEAD"].includes(method);
    const xsrf = this.cookies.get("XSRF-TOKEN");
    if (unsafe && opts.xsrf !== false && xsrf) headers["x-xsrf-token"] = xsrf;
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: "manual" });
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T, text, setCookies };
  }

  get<T = any>(path: string, opts?: CallOptions) {
    return this.call<T>("GET", path, opts);
  }
  post<T = any>(path: string, json?: unknown, opts?: CallOptions) {
    return this.call<T>("POST", path, { ...opts, json });
  }
  put<T = any>(path: string, json?: unknown, opts?: CallOptions) {
    return this.call<T>("PUT", path, { ...opts, json });
  }
  delete<T = any>(path: string, opts?: CallOptions) {
    return this.call<T>("DELETE", path, opts);
  }

  /** Fetches the XSRF cookie the way the web app gets it: from its first request. */
  async prime(): Promise<void> {
    await this.get("/api/config");
  }

  async login(email: string, password: string): Promise<Answer<any>> {
    await this.prime();
    return this.post("/auth/login", { email, password });
  }
}
