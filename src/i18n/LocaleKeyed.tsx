import { i18n } from "@lingui/core";
import { Fragment, type ReactNode, useEffect, useState } from "react";

/**
 * Renders its children anew when the language changes. Re-rendering alone left labels that were
 * worked out once (memoised lists, a section's tabs, text kept in state) in the old language
 * until a reload. A catalog merely loading (the screens' strings) changes nothing here.
 */
export function LocaleKeyed({ children }: { children: ReactNode }) {
  const [locale, setLocale] = useState(i18n.locale);
  useEffect(() => i18n.on("change", () => setLocale(i18n.locale)), []);
  return <Fragment key={locale}>{children}</Fragment>;
}
