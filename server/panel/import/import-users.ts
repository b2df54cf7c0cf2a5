import { errorText } from "./error-text.ts";
import type { PanelImport } from "./importer.ts";

/**
 * The source's users: their bcrypt hashes kept (checked once at their first sign-in, then ours),
 * their TOTP secrets decrypted with the APP_KEY, their language as their locale. A user whose
 * e-mail is here already is mapped onto that account, left as it is.
 */
export async function importUsers(run: PanelImport): Promise<void> {
  const { accounts } = run.services;
  for (const user of run.source.users) {
    const label = `user ${user.username} <${user.email}>`;
    const before = run.earlier("user", user.id);
    if (before) {
      const ours = await accounts.byId(Number(before));
      if (ours) {
        run.users.set(user.id, { id: ours.id, username: ours.username });
        if (run.earlier("user_left_alone", user.id)) run.leftAlone.add(user.id);
        run.line("kept", `${label}: imported before (user ${ours.id})`);
        continue;
      }
    }
    const same = await accounts.byEmail(user.email);
    if (same) {
      run.users.set(user.id, { id: same.id, username: same.username });
      await run.record("user", user.id, same.id);
      await run.record("user_left_alone", user.id, same.id);
      run.leftAlone.add(user.id);
      run.line(
        "mapped",
        `${label} → the user ${same.username} (${same.id}) with that e-mail here; left as it is`,
      );
      continue;
    }
    let totp: string | undefined;
    let totpNote = "";
    if (user.totpSecret) {
      if (!run.canDecrypt) totpNote = "; two-factor sign-in: they enrol again (no --app-key given)";
      else {
        try {
          totp = run.decrypt(user.totpSecret);
          totpNote = "; two-factor sign-in kept";
        } catch (err) {
          totpNote = `; two-factor sign-in: they enrol again (${errorText(err)})`;
        }
      }
    }
    const scopes = user.admin ? ["admin"] : ["login", "self.edit", "self.clients"];
    const locale = localeOf(run.options.locales, user.language);
    if (!run.options.apply) {
      run.users.set(user.id, { id: -user.id, username: user.username });
      run.line("created", `${label}${user.admin ? " (administrator)" : ""}, password kept${totpNote}`);
      continue;
    }
    try {
      const made = await accounts.createImported({
        username: user.username,
        email: user.email,
        passwordHash: user.passwordHash,
        scopes,
      });
      if (totp) await accounts.setOtp(made.id, { secret: totp, active: true });
      if (locale) await run.services.userSettings.set(made.id, "locale", locale);
      run.users.set(user.id, { id: made.id, username: made.username });
      await run.record("user", user.id, made.id);
      run.line(
        "created",
        `${label}${user.admin ? " (administrator)" : ""} as user ${made.id}, password kept${totpNote}`,
      );
    } catch (err) {
      run.line("skipped", `${label}: ${errorText(err)}`);
    }
  }
}

/** The source's language (de, pt-BR) as one of our locales (de_DE, pt_BR). */
function localeOf(locales: readonly string[], language: string): string | undefined {
  const wanted = language.replace("-", "_");
  return locales.find((l) => l === wanted) ?? locales.find((l) => l.split("_")[0] === wanted.split("_")[0]);
}
