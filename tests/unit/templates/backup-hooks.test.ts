import { describe, expect, it } from "vitest";
import { convertEgg } from "../../../server/templates/egg.ts";
import { parseTemplate } from "../../../server/templates/index.ts";

const minimal = { type: "test", run: { command: "./server", stop: "stop" } };

describe("the template's backup hooks", () => {
  it("reads before, after, waitFor, timeout and exclude", () => {
    const backup = {
      before: ["save-off", "save-all flush"],
      after: "save-on",
      waitFor: "Saved the game",
      timeout: "30",
      exclude: ["logs/", "*.tmp"],
    };
    const result = parseTemplate({ ...minimal, backup });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.template.backup).toEqual({
      before: ["save-off", "save-all flush"],
      after: ["save-on"],
      waitFor: "Saved the game",
      timeout: 30,
      exclude: ["logs/", "*.tmp"],
    });
    expect(parseTemplate(minimal)).toMatchObject({ ok: true, template: { type: "test" } });
    expect((parseTemplate(minimal) as { template: object }).template).not.toHaveProperty("backup");
  });

  it("names what is wrong", () => {
    const result = parseTemplate({ ...minimal, backup: { before: [1, {}], timeout: 0, waitFor: [] } });
    expect(result).toEqual({
      ok: false,
      problems: [
        { path: "backup.timeout", problem: "must be from 1 to 3600 seconds" },
        { path: "backup.waitFor", problem: "expected a string, got an array" },
        { path: "backup.before[1]", problem: "expected a string, got an object" },
      ],
    });
  });

  it("gives an imported Minecraft egg Minecraft's hooks, and another game's none", () => {
    const egg = (name: string) => ({
      meta: { version: "PTDL_v2" },
      name,
      description: "",
      docker_images: { Java: "ghcr.io/pterodactyl/yolks:java_21" },
      startup: "java -jar server.jar",
      config: { stop: "stop" },
      variables: [],
    });
    expect(convertEgg(egg("Paper")).document?.backup).toEqual({
      before: ["save-off", "save-all flush"],
      after: ["save-on"],
      waitFor: "Saved the game",
      timeout: 60,
    });
    expect(convertEgg(egg("Terraria")).document?.backup).toBeUndefined();
  });
});
