import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import * as kit from "../../../server/templates/index.ts";
import type { FullTemplate } from "../../../src/api/templates";
import {
  canLeave,
  checkCreate,
  formData,
  initialWizard,
  reachable,
  type WizardAction,
  type WizardState,
  withUser,
  wizardReducer,
} from "../../../src/screens/servers/create/wizard";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

const template: FullTemplate = {
  name: "paper",
  readme: "# Paper",
  type: "minecraft-java",
  display: "Paper",
  data: {
    motd: { type: "string", value: "hello", required: true },
    port: { type: "integer", value: 25565 },
    secret: { type: "string", value: "s" },
  },
  install: [],
  uninstall: [],
  run: { command: "java -jar paper.jar" },
  environment: { type: "docker", image: "java" },
  supportedEnvironments: [{ type: "host" }, { type: "docker", image: "java" }],
  requirements: {},
  limits: { memoryMiB: 1024 },
  egg: { hidden: ["secret"] } as FullTemplate["egg"],
} as FullTemplate;

const run = (state: WizardState, ...actions: WizardAction[]) => actions.reduce(wizardReducer, state);

/** Picked and loaded, the node list known and the node's offer answered. */
function ready(available: string[] | null = ["host", "docker"]) {
  return run(
    initialWizard("alice"),
    { type: "pick", repo: 1, name: "paper" },
    { type: "picked", repo: 1, name: "paper", template },
    {
      type: "nodes",
      nodes: [
        { id: 3, name: "remote" },
        { id: 7, name: "here", isLocal: true },
      ],
    },
    { type: "available", available },
  );
}

describe("create-server wizard: steps", () => {
  it("starts on the template step with the signed-in user as the server's user", () => {
    const s = initialWizard("alice");
    expect(s.step).toBe("template");
    expect(s.users).toEqual(["alice"]);
    expect(canLeave(s)).toBe(false);
    // the account may load after the first paint: filled in once, never over a list
    expect(run(initialWizard(undefined), { type: "me", username: "bob" }).users).toEqual(["bob"]);
    expect(run(s, { type: "users", users: [] }, { type: "me", username: "bob" }).users).toEqual(["bob"]);
    expect(run(s, { type: "users", users: ["carol"] }, { type: "me", username: "bob" }).users).toEqual([
      "carol",
    ]);
  });

  it("leaves the template step only once a template is loaded", () => {
    const picking = run(initialWizard("alice"), { type: "pick", repo: 1, name: "paper" });
    expect(picking.loadingTemplate).toBe(true);
    expect(run(picking, { type: "next" }).step).toBe("template");
    const loaded = run(picking, { type: "picked", repo: 1, name: "paper", template });
    expect(canLeave(loaded)).toBe(true);
    expect(run(loaded, { type: "next" }).step).toBe("environment");
    // its values and limits become the form's
    expect(loaded.values).toEqual({ motd: "hello", port: 25565, secret: "s" });
    expect(loaded.limits.memoryMiB).toBe("1024");
  });

  it("drops the answer for a template picked before the last one, and forgets a failed pick", () => {
    const s = run(
      initialWizard("alice"),
      { type: "pick", repo: 1, name: "paper" },
      { type: "pick", repo: 1, name: "vanilla" },
      { type: "picked", repo: 1, name: "paper", template },
    );
    expect(s.template).toBeUndefined();
    expect(s.loadingTemplate).toBe(true);
    const failed = run(s, { type: "pickFailed", repo: 1, name: "vanilla" });
    expect(failed).toMatchObject({ picked: undefined, template: undefined, loadingTemplate: false });
  });

  it("opens a step by its button only when every step before it can be left", () => {
    const start = initialWizard("alice");
    expect(reachable(start, "users")).toBe(false);
    expect(run(start, { type: "goTo", step: "settings" }).step).toBe("template");
    const s = ready();
    expect(reachable(s, "settings")).toBe(true);
    expect(run(s, { type: "goTo", step: "settings" }).step).toBe("settings");
    expect(run(s, { type: "goTo", step: "settings" }, { type: "back" }).step).toBe("users");
    expect(run(s, { type: "back" }).step).toBe("template");
  });

  it("chooses the local node once the list is known", () => {
    expect(ready().nodeId).toBe(7);
    expect(run(ready(), { type: "node", id: 3 })).toMatchObject({ nodeId: 3, available: undefined });
  });
});

describe("create-server wizard: environment", () => {
  it("starts on the template's default environment", () => {
    expect(ready().envIndex).toBe(1);
  });

  it("moves off an environment the node does not offer, to the default or else the first offered", () => {
    const hostOnly = ready(["host"]);
    expect(hostOnly.envIndex).toBe(0);
    expect(canLeave(run(hostOnly, { type: "next" }), "environment")).toBe(true);
    // a node offering both: the choice made stays
    const s = run(ready(), { type: "env", index: 0 }, { type: "available", available: ["host", "docker"] });
    expect(s.envIndex).toBe(0);
  });

  it("cannot leave the environment step while asking the node, or when it offers none of them", () => {
    const asking = run(ready(), { type: "available", available: undefined });
    expect(canLeave(asking, "environment")).toBe(false);
    const none = run(ready(), { type: "available", available: ["other"] });
    expect(canLeave(none, "environment")).toBe(false);
    // not known (the node did not say): every environment may be tried
    expect(canLeave(run(ready(), { type: "available", available: null }), "environment")).toBe(true);
  });
});

describe("create-server wizard: the request", () => {
  it("asks for a name, and a value a field needs, before building anything", () => {
    const s = run(ready(), { type: "value", name: "motd", value: " " });
    const check = checkCreate(s, kit, false);
    expect(check.nameMissing).toBe(true);
    expect(Object.keys(check.errors)).toEqual(["motd"]);
    expect(check.body).toBeUndefined();
    // typing clears the field's error and the name's
    const fixed = run(
      s,
      { type: "checked", errors: check.errors, nameMissing: check.nameMissing },
      { type: "value", name: "motd", value: "hi" },
      { type: "name", name: "x" },
    );
    expect(fixed.errors).toEqual({});
    expect(fixed.nameMissing).toBe(false);
  });

  it("builds the body: definition with typed values, name, node, users and environment", () => {
    const s = run(
      ready(),
      { type: "name", name: "  Survival  " },
      { type: "value", name: "port", value: "25570" },
      { type: "users", users: withUser(["alice"], " bob ") },
    );
    const { body } = checkCreate(s, kit, false);
    expect(body).toMatchObject({
      name: "Survival",
      node: 7,
      users: ["alice", "bob"],
      environment: { type: "docker", image: "java" },
      type: "minecraft-java",
      run: { command: "java -jar paper.jar" },
    });
    expect(body?.data.port.value).toBe(25570);
    // the template's own name, readme and limits are not the server's
    expect(body).not.toHaveProperty("readme");
    expect(body?.name).toBe("Survival");
    expect(body).not.toHaveProperty("limits");
  });

  it("sends limits only for administrators, and refuses limits that are not whole numbers", () => {
    const s = run(ready(), { type: "name", name: "a" });
    expect(checkCreate(s, kit, true).body?.limits).toEqual({ memoryMiB: 1024 });
    expect(checkCreate(s, kit, false).body).not.toHaveProperty("limits");
    const bad = run(s, { type: "limits", texts: { ...s.limits, cpuPercent: "1.5" } });
    expect(checkCreate(bad, kit, true).body).toBeUndefined();
  });

  it("shows an egg's hidden variables only to administrators", () => {
    expect(Object.keys(formData(template, false))).toEqual(["motd", "port"]);
    expect(Object.keys(formData(template, true))).toEqual(["motd", "port", "secret"]);
  });

  it("adds a user once, trimmed", () => {
    const users = ["alice"];
    expect(withUser(users, " alice ")).toBe(users);
    expect(withUser(users, "  ")).toBe(users);
    expect(withUser(users, " bob")).toEqual(["alice", "bob"]);
  });
});
