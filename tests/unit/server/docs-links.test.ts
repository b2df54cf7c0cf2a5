import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const docsDir = path.join(repoRoot, "docs");
const pages = fs.readdirSync(docsDir).filter((f) => f.endsWith(".md"));
const documents = ["README.md", "CHANGELOG.md", "ARCHITECTURE.md", ...pages.map((p) => `docs/${p}`)];

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");

function anchorsIn(file: string): Set<string> {
  const text = fs.readFileSync(file, "utf8").replace(/^```[\s\S]*?^```/gm, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1])));
}

/** Each markdown link of a document that points inside the repository: [target, anchor]. */
function localLinks(doc: string): { target: string; anchor?: string }[] {
  const text = fs.readFileSync(path.join(repoRoot, doc), "utf8").replace(/^```[\s\S]*?^```/gm, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href))
    .map((href) => {
      const [file, anchor] = href.split("#");
      return { target: file ? path.join(path.dirname(doc), file) : doc, anchor };
    });
}

describe("the docs (issue 42)", () => {
  it("has no dead link: every file linked exists, every anchor is a heading of its page", () => {
    const dead: string[] = [];
    for (const doc of documents)
      for (const { target, anchor } of localLinks(doc)) {
        const full = path.join(repoRoot, target);
        if (!fs.existsSync(full)) dead.push(`${doc}: ${target} does not exist`);
        else if (anchor && !(fs.statSync(full).isFile() && anchorsIn(full).has(anchor)))
          dead.push(`${doc}: ${target} has no heading for #${anchor}`);
      }
    expect(dead).toEqual([]);
  });

  it("links every page of docs/ from the README, and keeps the README for newcomers", () => {
    const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
    for (const page of pages) expect(readme).toContain(`](docs/${page})`);
    expect(readme).toContain("## Quick start");
    expect(readme.split("\n").length).toBeLessThan(200);
  });

  it("finds a dead link when there is one", () => {
    expect(anchorOf("What a host needs to run servers (the `host` environment)")).toBe(
      "what-a-host-needs-to-run-servers-the-host-environment",
    );
    expect(anchorsIn(path.join(repoRoot, "README.md")).has("no-such-heading")).toBe(false);
  });
});
