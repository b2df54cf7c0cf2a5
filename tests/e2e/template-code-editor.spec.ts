import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, deviceContext, editorText, snap, tr, unique, visitAsAdmin } from "./helpers.ts";

// The admin's template definition editor is the app's code editor (CodeMirror, issue 27): fetched
// only when a template is opened (never in the first load), JSON highlighting, line numbers,
// search with the app's controls in the page's language; edited and saved through it.

for (const [locale, catalog, width] of [
  ["en-US", "en_US", 1280],
  ["de-DE", "de_DE", 390],
  ["ar-SA", "ar_SA", 390],
  ["ar-SA", "ar_SA", 1280],
] as const) {
  test(`a template's JSON is edited and saved in the code editor (${locale}, ${width} px)`, async ({
    browser,
    baseURL,
  }) => {
    const api = await adminApi(baseURL!);
    const name = unique("code-tpl-");
    expect((await api.put(`/api/templates/0/${name}`, echoDefinition({ display: "Before" }))).status).toBe(
      204,
    );
    const context = await deviceContext(browser, { baseURL: baseURL!, locale, width });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await visitAsAdmin(page, "/templates");
    await expect(page.getByTestId("template-entry").first()).toBeVisible();
    // Not in the first load, nor on the list: only once a template is opened.
    expect(scripts.filter((u) => /codeEditor|lang-json/.test(u))).toEqual([]);

    await page.goto(`/templates/view/0/${name}`);
    const json = page.getByTestId("template-json");
    await expect(json).toBeVisible();
    expect(scripts.filter((u) => /codeEditor/.test(u)).length).toBeGreaterThan(0);
    // JSON highlighting (a property name in its colour) and line numbers.
    await expect(
      page.locator(".json-editor .cm-lineNumbers .cm-gutterElement").filter({ hasText: /^2$/ }),
    ).toBeVisible();
    const colours = () =>
      json
        .locator(".cm-line")
        .nth(1)
        .locator("span")
        .evaluateAll((spans) => spans.map((s) => [s.textContent, getComputedStyle(s).color]));
    await expect.poll(async () => (await colours()).length).toBeGreaterThanOrEqual(2);
    // Code reads left to right on every page.
    expect(
      await page.locator(".json-editor .cm-editor").evaluate((el) => getComputedStyle(el).direction),
    ).toBe("ltr");

    // Edited in the editor, through its search and replace (the app's controls, the page's words):
    // the form follows; saved.
    // Where a person would click: on its first line (the middle of the wide text is off screen).
    await json.click({ position: { x: 8, y: 8 } });
    await page.keyboard.press("ControlOrMeta+f");
    const panel = page.locator(".json-editor .cm-search");
    const find = panel.getByRole("textbox", { name: tr(catalog, "Find") });
    await find.fill("Before");
    // It finds: the match is selected in the editor.
    await panel.getByRole("button", { name: tr(catalog, "next") }).click();
    await expect(page.locator(".json-editor .cm-searchMatch-selected")).toHaveText("Before");
    await panel.getByRole("textbox", { name: tr(catalog, "Replace") }).fill("After");
    await panel.getByRole("button", { name: tr(catalog, "replace all") }).click();
    await expect(page.getByLabel(tr(catalog, "Display name"))).toHaveValue("After");
    expect(JSON.parse(await editorText(json)).display).toBe("After");
    await page.getByTestId("save-template").click();
    await expect(page.getByTestId("save-template")).toBeDisabled();
    expect((await api.get(`/api/templates/0/${name}`)).body.display).toBe("After");
    const [fieldHeight, buttonHeight] = await Promise.all([
      find.evaluate((el) => el.getBoundingClientRect().height),
      panel
        .getByRole("button", { name: tr(catalog, "next") })
        .evaluate((el) => el.getBoundingClientRect().height),
    ]);
    expect(fieldHeight).toBeGreaterThanOrEqual(36);
    expect(buttonHeight).toBeGreaterThanOrEqual(36);
    expect(await panel.evaluate((el) => getComputedStyle(el).direction)).toBe(
      locale === "ar-SA" ? "rtl" : "ltr",
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await page.locator(".json-editor .cm-scroller").evaluate((el) => el.scrollLeft)).toBe(0);
    await snap(page, `template-code-editor-${catalog}-${width}`);
    await context.close();
    expect((await api.delete(`/api/templates/0/${name}`)).status).toBe(204);
  });
}
