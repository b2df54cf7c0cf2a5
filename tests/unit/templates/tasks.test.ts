import { describe, expect, it } from "vitest";
import { ApiError } from "../../../server/errors.ts";
import { checkedTask, parseTask, parseTaskSettings } from "../../../server/templates/tasks.ts";

function refusal(raw: unknown): Record<string, unknown> | undefined {
  try {
    checkedTask(raw, "UTC");
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).code).toBe("ErrTaskInvalid");
    return (error as ApiError).metadata;
  }
  return undefined;
}

describe("tasks", () => {
  it("reads a task with each kind of operation", () => {
    const task = checkedTask(
      {
        name: "Nightly",
        cronSchedule: "0 4 * * *",
        operations: [
          { type: "console", message: "say restarting" },
          { type: "sleep", duration: "5s" },
          { type: "restart" },
          { type: "backup", keep: 2 },
          { type: "writefile", target: "a.txt", text: "x" },
        ],
      },
      "UTC",
    );
    expect(task).toEqual({
      name: "Nightly",
      enabled: true,
      cronSchedule: "0 4 * * *",
      operations: [
        { type: "console", message: "say restarting" },
        { type: "sleep", duration: "5s" },
        { type: "restart" },
        { type: "backup", keep: 2 },
        { type: "writefile", target: "a.txt", text: "x" },
      ],
    });
    expect(checkedTask({ name: "On crash", event: "crashed", operations: [] }, "UTC").event).toBe("crashed");
    expect(
      checkedTask({ name: "Hi", consoleMatch: "joined the game$", operations: [] }, "UTC").consoleMatch,
    ).toBe("joined the game$");
  });

  it("refuses bad input naming the field", () => {
    expect(refusal({ operations: [] })).toMatchObject({ field: "name", problem: "is required" });
    expect(refusal({ name: "a", operations: [{ type: "teleport" }] })).toMatchObject({
      field: "operations[0].type",
    });
    expect(refusal({ name: "a", cronSchedule: "0 0 30 2 *", operations: [] })).toMatchObject({
      field: "cronSchedule",
      problem: "never fires",
    });
    expect(refusal({ name: "a", cronSchedule: "61 * * * *", operations: [] })).toMatchObject({
      field: "cronSchedule",
    });
    expect(refusal({ name: "a", consoleMatch: "(unclosed", operations: [] })).toMatchObject({
      field: "consoleMatch",
    });
    expect(refusal({ name: "a", event: "exploded", operations: [] })).toMatchObject({ field: "event" });
    expect(refusal({ name: "a", event: "crashed", cronSchedule: "* * * * *", operations: [] })).toMatchObject(
      {
        field: "event",
      },
    );
    expect(refusal({ name: "a", operations: [{ type: "backup", keep: 0 }] })).toMatchObject({
      field: "operations[0].keep",
    });
    expect(refusal({ name: "a", operations: [{ type: "console" }] })).toMatchObject({
      field: "operations[0].message",
    });
    expect(refusal({ name: "a" })).toMatchObject({ field: "operations" });
    expect(refusal("nope")).toMatchObject({ field: "" });
    expect(parseTask({ name: "a", operations: [] }, "UTC").problems).toEqual([]);
  });

  it("reads the server's task settings", () => {
    expect(
      parseTaskSettings({ timezone: "Europe/Paris", limitMode: "skip", concurrentLimit: 2 }).settings,
    ).toEqual({
      timezone: "Europe/Paris",
      limitMode: "skip",
      concurrentLimit: 2,
    });
    expect(parseTaskSettings({ limitMode: "queue" }).problems[0].path).toBe("limitMode");
    expect(parseTaskSettings({ timezone: "Nowhere/Land" }).problems[0].path).toBe("timezone");
  });
});
