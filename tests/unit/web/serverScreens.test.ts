import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import type { Group, Variable } from "../../../server/templates/index.ts";
import * as kit from "../../../server/templates/index.ts";
import { nameQuery, newServerId } from "../../../src/api/servers";
import { CommandHistory } from "../../../src/screens/servers/console/commandHistory";
import { templateEnvironments } from "../../../src/screens/servers/create/wizard";
import { listActions } from "../../../src/screens/servers/ServerList";
import { serverAddress } from "../../../src/screens/servers/serverScopes";
import { checkValues, plainText, shownGroups } from "../../../src/screens/servers/variables";
import { viewActions } from "../../../src/screens/servers/view/Lifecycle";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

const data: Record<string, Variable> = {
  motd: { type: "string", value: "hi", display: "Message", required: true },
  port: { type: "integer", value: 25565 },
  mode: {
    type: "option",
    value: "simple",
    options: [{ value: "simple" }, { value: "advanced" }],
  },
  verbose: { type: "boolean", value: false },
  dockerOnly: { type: "string", value: "" },
  hidden: { type: "string", value: "x", internal: true },
  loose: { type: "string", value: "" },
};
const groups: Group[] = [
  { display: "Advanced", if: "mode == 'advanced'", variables: ["verbose"], order: 2 },
  { display: "General", variables: ["motd", "port", "mode", "hidden"], order: 1 },
  { display: "Docker", if: "env == 'docker'", variables: ["dockerOnly"], order: 3 },
  { display: "Broken", if: "nope(", variables: ["loose"], order: 4 },
];
const values = (over: Record<string, string | number | boolean> = {}) => ({
  ...Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.value])),
  ...over,
});

describe("settings groups (spec §2.3, CEL if)", () => {
  it("orders groups, hides those whose condition is false, never shows internal variables", () => {
    const shown = shownGroups(kit, data, groups, values(), "host");
    expect(shown.map((g) => [g.display, g.names])).toEqual([
      ["General", ["motd", "port", "mode"]],
      // a condition that cannot be evaluated shows its group
      ["Broken", ["loose"]],
    ]);
  });

  it("follows the values being edited and the environment", () => {
    const shown = shownGroups(kit, data, groups, values({ mode: "advanced" }), "docker");
    expect(shown.map((g) => g.display)).toEqual(["General", "Advanced", "Docker", "Broken"]);
  });

  it("an unknown environment shows the groups that ask about it", () => {
    expect(shownGroups(kit, data, groups, values(), undefined).map((g) => g.display)).toContain("Docker");
  });

  it("puts variables of no group last, untitled when there are no groups at all", () => {
    const only = { a: { type: "string", value: "" } as Variable };
    expect(shownGroups(kit, only, undefined, {}, "host")).toEqual([
      { key: "rest", display: undefined, names: ["a"] },
    ]);
  });
});

describe("variable values", () => {
  it("coerces to the declared types and reports wrong or missing values of shown fields", () => {
    const names = ["motd", "port", "mode", "verbose"];
    const ok = checkValues(kit, data, values({ port: "25570", verbose: true }), names);
    expect(ok.errors).toEqual({});
    expect(ok.values).toMatchObject({ port: 25570, verbose: true, mode: "simple", motd: "hi" });

    const bad = checkValues(kit, data, values({ port: "twelve", motd: "  " }), names);
    expect(Object.keys(bad.errors).sort()).toEqual(["motd", "port"]);
    // a field that is not shown is not blamed
    expect(checkValues(kit, data, values({ motd: "" }), ["port"]).errors).toEqual({});
    // what the node refuses, the form shows first: a line break, a value outside the options
    const refused = checkValues(kit, data, values({ motd: "hi\nop me", mode: "expert" }), names);
    expect(Object.keys(refused.errors).sort()).toEqual(["mode", "motd"]);
  });

  it("shows template help as plain text", () => {
    expect(plainText('Use <b>this</b><br>and &lt;that&gt; <a href="x">link</a>')).toBe(
      "Use this\nand <that> link",
    );
  });
});

describe("server list and view controls (spec §2.3)", () => {
  it("hides start while online and stop/kill while offline; nothing while unknown", () => {
    expect(listActions("online")).toEqual(["stop", "kill"]);
    expect(listActions("starting")).toEqual(["stop", "kill"]);
    expect(viewActions("starting")).toEqual(["stop", "kill"]);
    expect(listActions("offline")).toEqual(["start"]);
    // Never installed, or its install failed: Install, never Start (issue 27).
    expect(listActions("offline", false)).toEqual(["install"]);
    expect(listActions("offline", true)).toEqual(["start"]);
    expect(listActions("unknown")).toEqual([]);
    expect(listActions("unreachable")).toEqual([]);
    expect(listActions("installing")).toEqual([]);
    expect(listActions("loading")).toEqual([]);
    // status not readable by this user: what the scopes allow
    expect(listActions(undefined)).toEqual(["start", "stop", "kill"]);
    expect(viewActions("offline")).toEqual(["start", "install"]);
    expect(viewActions("online")).toEqual(["stop", "kill"]);
  });

  it("shows ip:port, or the node's public host when the ip is empty or a wildcard", () => {
    const node = { publicHost: "play.example.com" };
    expect(serverAddress({ ip: "10.0.0.2", port: 25565, node })).toBe("10.0.0.2:25565");
    expect(serverAddress({ ip: "0.0.0.0", port: 25565, node })).toBe("play.example.com:25565");
    expect(serverAddress({ port: 7777, node })).toBe("play.example.com:7777");
    expect(serverAddress({ ip: "::1", port: 1, node })).toBe("[::1]:1");
    expect(serverAddress({ node: { publicHost: "" } })).toBe("");
  });

  it("makes 8-hex-character ids and wraps name searches in wildcards", () => {
    const ids = new Set(Array.from({ length: 50 }, newServerId));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(ids.size).toBeGreaterThan(45);
    expect(nameQuery("  mine ")).toBe("*mine*");
    expect(nameQuery(" ")).toBeUndefined();
  });

  it("offers a template's environments, or its one environment", () => {
    expect(templateEnvironments({ environment: { type: "host" } })).toEqual([{ type: "host" }]);
    expect(
      templateEnvironments({
        environment: { type: "docker" },
        supportedEnvironments: [{ type: "host" }, { type: "docker", image: "x" }],
      }),
    ).toHaveLength(2);
  });
});

describe("command history (↑ / ↓)", () => {
  it("walks back and forth and returns to what was being typed", () => {
    const h = new CommandHistory([]);
    h.add("first");
    h.add("second");
    h.add("second");
    expect(h.older("draft")).toBe("second");
    expect(h.older("second")).toBe("first");
    expect(h.older("first")).toBeUndefined();
    expect(h.newer()).toBe("second");
    expect(h.newer()).toBe("draft");
    expect(h.newer()).toBeUndefined();
  });
});
