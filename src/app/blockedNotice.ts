import { t } from "@lingui/core/macro";

// Loaded only on a blocked host (hostCheck.ts), its words with the screens' catalog: the login
// page's first load goes without them.

/** A plain-DOM notice; the app itself never starts on such a host. */
export function showBlockedNotice(root: HTMLElement): void {
  const box = document.createElement("div");
  box.className = "blocked-notice";
  box.setAttribute("role", "alert");
  const h = document.createElement("h1");
  h.textContent = t`Important notice`;
  const p = document.createElement("p");
  p.textContent = t`Hosting this panel on GitHub Codespaces is not allowed. Codespaces may only be used to develop or test the project in its repository; see GitHub's terms for additional products.`;
  const a = document.createElement("a");
  a.href =
    "https://docs.github.com/en/site-policy/github-terms/github-terms-for-additional-products-and-features#codespaces";
  a.textContent = t`GitHub terms for Codespaces`;
  a.rel = "noopener noreferrer";
  box.append(h, p, a);
  root.replaceChildren(box);
}
