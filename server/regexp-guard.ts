import v8 from "node:v8";

/**
 * Every regular expression of this process falls back to V8's linear-time engine once it has
 * backtracked too far (V8's default: 50,000 backtracks), instead of running for hours: a pattern
 * from a template or an egg (an egg variable's `regex:` rule, checked against a user's value on the
 * panel), from a task, or a search, whatever module runs it. The patterns users write in tasks are
 * matched by RE2 as well (server/daemon/tasks, install/steps/alterfile.ts); this is the net under
 * the rest. A pattern with a back-reference has no linear-time match and is not covered.
 * Imported first by every entry point of the panel and the node.
 */
v8.setFlagsFromString("--enable-experimental-regexp-engine-on-excessive-backtracks");
