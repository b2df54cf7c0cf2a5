import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, editorText, unique, visitAsAdmin } from "./helpers.ts";

// The form beside the template's JSON writes into the text, and the JSON editor follows; a fast
// typist (or a slow phone, where a frame takes long) types the next key before the editor has
// followed the last one. No key may be lost, in the field or in the JSON.
test("keys typed fast into a template's form field are all kept, in the field and the JSON", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const name = unique("fast-tpl-");
  expect((await api.put(`/api/templates/0/${name}`, echoDefinition({ display: "" }))).status).toBe(204);
  await visitAsAdmin(page, `/templates/view/0/${name}`);
  const json = page.getByTestId("template-json");
  await expect(json.locator(".cm-line").first()).toBeAttached();
  const field = page.getByLabel("Display name");
  const typed = "The quick brown fox jumps over the lazy dog";
  await field.pressSequentially(typed);
  await expect(field).toHaveValue(typed);
  await expect.poll(async () => JSON.parse(await editorText(json)).display).toBe(typed);
});
