import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import type { FileEntry } from "../../../src/api/files";
import { carriesFiles, droppedFiles, replacedNames } from "../../../src/screens/servers/files/dropped";
import { primaryAction, type RowContext, rowActions } from "../../../src/screens/servers/files/rowActions";
import { allOrNone, keepPresent, NOTHING, toggled } from "../../../src/screens/servers/files/selection";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

const file = (name: string, size = 10): FileEntry => ({ name, isFile: true, size }) as FileEntry;
const folder = (name: string): FileEntry => ({ name, isFile: false }) as FileEntry;

describe("file selection", () => {
  it("checks and unchecks one name without touching the set it came from", () => {
    const one = toggled(NOTHING, "a", true);
    expect([...one]).toEqual(["a"]);
    expect(NOTHING.size).toBe(0);
    expect([...toggled(one, "a", false)]).toEqual([]);
  });

  it("selects every entry but the way up, or none", () => {
    expect([...allOrNone([folder(".."), folder("world"), file("a.txt")], true)]).toEqual(["world", "a.txt"]);
    expect(allOrNone([file("a")], false).size).toBe(0);
  });

  it("keeps only names still in the folder, and the very same set when none went", () => {
    const selected = new Set(["a", "b"]);
    expect(keepPresent(selected, new Set(["a", "b", "c"]))).toBe(selected);
    expect([...keepPresent(selected, new Set(["b"]))]).toEqual(["b"]);
  });
});

describe("dropped files", () => {
  it("takes only a drag of files", () => {
    expect(carriesFiles(["Files"])).toBe(true);
    expect(carriesFiles(["text/plain", "text/uri-list"])).toBe(false);
  });

  it("counts folders apart, which cannot be uploaded", () => {
    const a = new File(["x"], "a.txt");
    const b = new File(["y"], "b.txt");
    const item = (f: File | null, dir: boolean) =>
      ({
        kind: "file",
        getAsFile: () => f,
        webkitGetAsEntry: () => ({ isDirectory: dir }),
      }) as unknown as DataTransferItem;
    const transfer = {
      items: [item(a, false), item(null, true), item(b, false)] as unknown as DataTransferItemList,
      files: [] as unknown as FileList,
    };
    expect(droppedFiles(transfer)).toEqual({ files: [a, b], folders: 1 });
    // no items list (an older browser): the files as they are
    expect(
      droppedFiles({ items: [] as unknown as DataTransferItemList, files: [a] as unknown as FileList }),
    ).toEqual({
      files: [a],
      folders: 0,
    });
  });

  it("names the files an upload would write over", () => {
    expect(replacedNames([{ name: "a" }, { name: "b" }], new Set(["b", "c"]))).toEqual(["b"]);
  });
});

describe("row actions", () => {
  const calls: string[] = [];
  const context = (canEdit: boolean, dir = "plugins"): RowContext => ({
    serverId: "0a1b2c3d",
    dir,
    canEdit,
    on: {
      open: (d) => calls.push(`open ${d}`),
      edit: (f) => calls.push(`edit ${f.path} ${f.size}`),
      move: (n) => calls.push(`move ${n}`),
      extract: (n) => calls.push(`extract ${n}`),
      remove: (n) => calls.push(`remove ${n}`),
    },
  });

  it("opens a folder, goes up from '..', edits a text file and downloads any other", () => {
    calls.length = 0;
    primaryAction(context(true), folder("worlds")).run?.();
    primaryAction(context(true, "a/b"), folder("..")).run?.();
    primaryAction(context(true), file("config.yml", 42)).run?.();
    expect(calls).toEqual(["open plugins/worlds", "open a", "edit plugins/config.yml 42"]);
    const download = primaryAction(context(true), file("server.jar"));
    expect(download).toMatchObject({
      id: "download",
      href: "/api/servers/0a1b2c3d/file/plugins/server.jar",
      download: "server.jar",
      name: "server.jar",
    });
  });

  it("offers changes only to editors, extract only for archives, and names each action's file", () => {
    expect(rowActions(context(false), file("config.yml")).map((a) => a.id)).toEqual(["download", "edit"]);
    expect(rowActions(context(false), file("config.yml"))[1].label).toBe("View");
    expect(rowActions(context(true), file("world.zip")).map((a) => a.id)).toEqual([
      "download",
      "move",
      "extract",
      "delete",
    ]);
    expect(rowActions(context(true), folder("logs")).map((a) => a.id)).toEqual(["move", "delete"]);
    expect(rowActions(context(true), folder(".."))).toEqual([]);
    const remove = rowActions(context(true), file("old.log")).find((a) => a.id === "delete");
    expect(remove).toMatchObject({ name: "Delete old.log", danger: true });
    calls.length = 0;
    remove?.run?.();
    expect(calls).toEqual(["remove old.log"]);
  });
});
