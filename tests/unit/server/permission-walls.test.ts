import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const serverDir = path.resolve(import.meta.dirname, "../../../server");

/** The permission module, and the schema files that declare and create the table (and migrate it). */
const owners = new Set(["panel/permissions.ts", "db/tables.ts", "db/write-notifications.ts"]);
const isOwner = (file: string) => owners.has(file) || file.startsWith("db/migrations/");

/**
 * The source with its comments blanked (newlines kept, so lines still count); code, strings,
 * templates and regular expressions stay as they are. A `/` starts a regular expression where a
 * value may begin.
 */
function withoutComments(source: string): string {
  const comments: [number, number][] = [];
  let i = 0;
  let depth = 0; // open braces of code
  const templates: number[] = []; // for each open `${`, the brace depth its `}` closes at
  let valueMayStart = true;
  /** Skips a quoted piece from `i` (just past its opening quote, or a template's `}`) to its end. */
  const skipQuoted = (quote: string) => {
    for (; i < source.length && source[i] !== quote; i++) {
      if (source[i] === "\\") i++;
      else if (quote === "`" && source.startsWith("${", i)) {
        templates.push(depth);
        i += 2;
        return;
      }
    }
    i++;
  };
  while (i < source.length) {
    const c = source[i];
    if (source.startsWith("//", i)) {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? source.length : end;
      comments.push([i, stop]);
      i = stop;
    } else if (source.startsWith("/*", i)) {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      comments.push([i, stop]);
      i = stop;
    } else if (c === '"' || c === "'" || c === "`" || (c === "}" && templates.at(-1) === depth)) {
      if (c === "}") templates.pop();
      i++;
      skipQuoted(c === "}" ? "`" : c);
      valueMayStart = false;
    } else if (c === "/" && valueMayStart) {
      let inClass = false;
      for (i++; i < source.length && (inClass || source[i] !== "/") && source[i] !== "\n"; i++) {
        if (source[i] === "\\") i++;
        else if (source[i] === "[") inClass = true;
        else if (source[i] === "]") inClass = false;
      }
      i++;
      valueMayStart = false;
    } else {
      if (c === "{") depth++;
      if (c === "}") depth--;
      i++;
      if (!/\s/.test(c))
        valueMayStart =
          "(,=:[!&|?{};+-*%<>~^".includes(c) || /\b(return|typeof|case|in|of)$/.test(source.slice(i - 7, i));
    }
  }
  let out = "";
  let from = 0;
  for (const [start, stop] of comments) {
    out += source.slice(from, start) + source.slice(start, stop).replace(/[^\n]/g, " ");
    from = stop;
  }
  return out + source.slice(from);
}

/**
 * Where code names the `permissions` table to the database: the query builder's table argument
 * (`selectFrom("permissions")`, `innerJoin("permissions as p")`, `sql.table("permissions")`), a
 * column of it (`"permissions.scopes"`), or raw SQL reading or writing it. Comments are not code;
 * prose in a string such as "your permissions changed" is none of these.
 */
const tableNamed = [
  /["'`]\s*permissions(\s+as\s+\w+)?\s*["'`]/gi,
  /["'`]\s*permissions\s*\./gi,
  /\b(from|join|into|update|table|truncate|exists)\s+["`]?permissions\b/gi,
  /\bfrom\s[^;`\n]*,\s*["`]?permissions\b/gi,
  /(?<![.\w])["`]?permissions["`]?\s*\.\s*["`]?(user_id|server_id|scopes)\b/gi,
];

/** Each place a source names the table: `line: code`. */
function tableMentions(source: string): string[] {
  const code = withoutComments(source);
  const found = new Map<number, string>();
  for (const pattern of tableNamed)
    for (const match of code.matchAll(pattern)) {
      const line = code.slice(0, match.index).split("\n").length;
      found.set(line, `${line}: ${code.split("\n")[line - 1].trim()}`);
    }
  return [...found.keys()].sort((a, b) => a - b).map((line) => found.get(line) as string);
}

/** Every .ts file below server/, as a path relative to it. */
function serverFiles(): string[] {
  return fs
    .readdirSync(serverDir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) =>
      path.relative(serverDir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"),
    );
}

const read = (file: string) => fs.readFileSync(path.join(serverDir, file), "utf8");

describe("permission wall", () => {
  it("sees each way of querying the table", () => {
    const violations = [
      `db.selectFrom("permissions").selectAll().execute();`,
      `db.selectFrom('permissions as p').select("p.scopes");`,
      `db.selectFrom(["users", "permissions"]);`,
      "db.insertInto(`permissions`).values(row);",
      `db.updateTable("permissions").set({ scopes: "" });`,
      `db.deleteFrom("permissions").where("user_id", "=", 1);`,
      `db.selectFrom("users").innerJoin("permissions", "permissions.user_id", "users.id");`,
      `db.selectFrom("users").leftJoin("permissions", (j) => j.onRef("user_id", "=", "users.id"));`,
      `db.selectFrom("users").select("permissions.scopes");`,
      `db.selectFrom("users").where("id", "in", (eb) => eb.selectFrom("permissions").select("user_id"));`,
      "sql`select scopes from permissions where user_id = ${id}`.execute(db);",
      "sql`DELETE FROM permissions`.execute(db);",
      'sql`select * from "permissions"`.execute(db);',
      "sql`select u.id from users u join permissions p on p.user_id = u.id`;",
      "sql`insert into permissions (user_id, server_id, scopes) values (${a}, '', '')`;",
      "sql`update permissions set scopes = ''`;",
      "sql`select u.id from users u, permissions p where p.user_id = u.id`;",
      "sql`select ${sql.ref('x')} where permissions.scopes like '%admin%'`;",
      "sql`select * from ${sql.table('permissions')}`;",
      `db.executeQuery(CompiledQuery.raw("truncate permissions"));`,
      // After what could throw a scanner off its track: a quote in a regular expression or a comment,
      // a URL in a string, a template with a nested template.
      `const quote = /["']/; // it's quoted\ndb.selectFrom("permissions");`,
      `const url = "http://example.com"; db.deleteFrom("permissions");`,
      'const text = `a ${`b ${c}`} d`; db.updateTable("permissions");',
      `const half = a / 2; const other = b / 3; db.selectFrom("permissions");`,
    ];
    for (const source of violations) expect(tableMentions(source), source).not.toEqual([]);
  });

  it("lets prose, imports and property names about permissions be", () => {
    const innocent = [
      `// reads the permissions table through permissions.ts`,
      `/** Deletes a user's sessions, clients, permissions and settings. */ const x = 1;`,
      `close(id, "your permissions changed");`,
      `close(id, "your permissions on this server changed");`,
      `import { Permissions } from "./permissions.ts";`,
      `const reply = { permissions: { scopes: [] } };`,
      `this.permissions.grant(userId, serverId, scopes);`,
      `// once: db.selectFrom("permissions")`,
      `/* the old way: sql\`delete from permissions\` */ const y = 2;`,
    ];
    for (const source of innocent) expect(tableMentions(source), source).toEqual([]);
  });

  it("no module but server/panel/permissions.ts (and the schema) queries the permissions table", () => {
    const found = serverFiles()
      .filter((file) => !isOwner(file))
      .flatMap((file) => tableMentions(read(file)).map((hit) => `${file}:${hit}`));
    expect(found).toEqual([]);
  });

  it("the permission module is where the table is queried (the scan looks at the right files)", () => {
    expect(tableMentions(read("panel/permissions.ts")).length).toBeGreaterThan(0);
  });

  // The rule "nothing without `login`" is written once, as permissions.ts's mayLogIn.
  it("no module but server/panel/permissions.ts checks `login` by hand", () => {
    const byHand = /holdsScope\([^)]*["'`]login["'`]\s*\)/;
    const found = serverFiles().filter((file) => file !== "panel/permissions.ts" && byHand.test(read(file)));
    expect(found).toEqual([]);
  });
});
