// The alerts' texts per locale (locales/<locale>/alerts.json, read by
// server/panel/notifications/alert-texts.ts): what npm run i18n:check finds wrong in one locale's.
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  ALERT_TEXTS_FILE,
  englishAlertTexts,
  readAlertTexts,
} from "../../server/panel/notifications/alert-texts.ts";

const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();

/** Problems of one locale's alert texts: missing, left in English, placeholders or figures lost, stale keys. */
export function alertTextProblems(localesDir: string, locale: string): string[] {
  if (!existsSync(join(localesDir, locale, ALERT_TEXTS_FILE))) return [`${ALERT_TEXTS_FILE} missing`];
  const texts = readAlertTexts(locale, localesDir);
  if (!texts) return [`${ALERT_TEXTS_FILE}: not JSON`];
  const problems: string[] = [];
  for (const [event, english] of Object.entries(englishAlertTexts)) {
    const local = (texts as Record<string, Record<string, string> | undefined>)[event] ?? {};
    for (const [key, en] of Object.entries(english)) {
      const id = `alert ${event}/${key}`;
      const text = local[key];
      if (typeof text !== "string" || !text.trim()) problems.push(`${id} untranslated: ${en}`);
      else if (text === en) problems.push(`${id} still English: ${en}`);
      else if (placeholders(text).join() !== placeholders(en).join())
        problems.push(`${id} placeholders differ: ${text}`);
      else
        for (const figure of en.match(/\d+/g) ?? [])
          if (!text.includes(figure)) problems.push(`${id} lost "${figure}": ${text}`);
    }
    for (const key of Object.keys(local))
      if (!(key in english)) problems.push(`alert ${event}/${key}: not a text of this alert`);
  }
  for (const event of Object.keys(texts))
    if (!(event in englishAlertTexts)) problems.push(`alert ${event}: no longer an alert`);
  return problems;
}
