/**
 * What happened in the search box before its code loaded: the top bar shows a plain box first
 * (the search code is loaded lazily), and a user who pressed / and started typing in it keeps
 * focus and text when the real box replaces it.
 */
export const searchHandoff = { focused: false, text: "" };
