import { describe, expect, it } from "vitest";
import { csvField } from "../../../server/api/activity.ts";

// Issue 35: the CSV export quoted a cell only when it held a comma, a quote or a line break, so a
// spreadsheet that splits on `;` (the separator of many locales) read `a;=HYPERLINK(…)` as two
// cells, the second a formula. Every cell is quoted now, and a formula's first character disarmed.
describe("activity CSV cells (OWASP CSV injection)", () => {
  it("quotes every cell, whatever the separator a spreadsheet splits on", () => {
    expect(csvField("server.console")).toBe('"server.console"');
    expect(csvField('a;=HYPERLINK("http://x")')).toBe('"a;=HYPERLINK(""http://x"")"');
    expect(csvField("a\t=1+1")).toBe('"a\t=1+1"');
    expect(csvField(12)).toBe('"12"');
    expect(csvField(null)).toBe('""');
  });

  it("prefixes a cell a spreadsheet would run as a formula with a single quote", () => {
    for (const formula of ["=1+1", "+1+1", "-1+1", "@SUM(A1)", "\t=1", "\r=1"]) {
      expect(csvField(formula)).toBe(`"'${formula}"`);
    }
    expect(csvField({ command: "=cmd" })).toBe('"{""command"":""=cmd""}"');
  });
});
