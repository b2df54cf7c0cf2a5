import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compareVersions, upgradeNotes } from "../../../server/cli/upgrade-notes.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const changelog = fs.readFileSync(path.join(root, "CHANGELOG.md"), "utf8");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

describe("CHANGELOG.md", () => {
  it("has a section for the version package.json names, with its date, and one Unreleased", () => {
    expect(changelog).toMatch(
      new RegExp(`^## \\[${version.replace(/\./g, "\\.")}\\] - \\d{4}-\\d{2}-\\d{2}$`, "m"),
    );
    expect(changelog.match(/^## \[Unreleased\]$/gm)).toHaveLength(1);
  });

  it("lists its releases newest first, each with an Upgrading part", () => {
    const versions = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\]/gm)].map((m) => m[1]);
    expect(versions.length).toBeGreaterThan(1);
    expect([...versions].sort((a, b) => compareVersions(b, a))).toEqual(versions);
    for (const part of changelog.split(/^## /m).filter((p) => /^\[\d/.test(p)))
      if (!part.startsWith("[0.1.0]")) expect(part, part.slice(0, 20)).toContain("### Upgrading");
  });
});

describe("the upgrade notes", () => {
  const sample = [
    "## [Unreleased]",
    "- Upgrading: not yet released",
    "## [1.2.0] - 2026-03-01",
    "- Upgrading: B first",
    "- Upgrading: B second",
    "## [1.1.0] - 2026-02-01",
    "- Upgrading: A",
    "## [1.0.0] - 2026-01-01",
    "- Upgrading: old",
  ].join("\n");

  it("gives the releases after the old version up to this one, oldest first, in their own order", () => {
    expect(upgradeNotes("1.0.0", "1.2.0", sample)).toEqual(["1.1.0: A", "1.2.0: B first", "1.2.0: B second"]);
    expect(upgradeNotes("1.1.0", "1.1.0", sample)).toEqual([]);
    expect(upgradeNotes("0.9.0", "1.0.0", sample)).toEqual(["1.0.0: old"]);
  });

  it("compares versions by number, not as text", () => {
    expect(compareVersions("0.10.0", "0.9.1")).toBeGreaterThan(0);
    expect(compareVersions("1.0.0", "1.0.0-rc.1")).toBe(0);
    expect(compareVersions("0.3.0", "0.3.1")).toBeLessThan(0);
  });
});
