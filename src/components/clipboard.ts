/** Selects everything inside an element, so the user can copy it by hand. */
export function selectContents(el: HTMLElement): void {
  const range = document.createRange();
  range.selectNodeContents(el);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/**
 * Copies text: the async clipboard where the page may use it, otherwise the selected text of
 * `shown` (the element showing it) through the old copy command. False when neither worked;
 * the text is then left selected.
 */
export async function copyText(text: string, shown?: HTMLElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // refused (no permission, no focus): fall back
  }
  if (!shown) return false;
  selectContents(shown);
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}
