import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { Dialog } from "../components/Dialog";
import { hasScope } from "../state/scopes";
import { loggedIn } from "../state/session";
import { helpOpen } from "./helpOpen";
import { contextHotkeys } from "./hotkeyState";
import { globalHotkeys, type HotkeyEntry, keyCaps, listedHotkeys } from "./hotkeyTable";
import { routes } from "./routes";

function Keys({ keys }: { keys: string }) {
  return (
    <span className="keys">
      {keyCaps(keys).map((k, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: key caps may repeat ("g g")
        <kbd key={i}>{k}</kbd>
      ))}
    </span>
  );
}

function Section({
  title,
  entries,
}: {
  title: string;
  entries: readonly Pick<HotkeyEntry, "keys" | "label">[];
}) {
  const { i18n } = useLingui();
  if (!entries.length) return null;
  return (
    <section>
      <h3 className="small-title">{title}</h3>
      <dl className="hotkey-list">
        {entries.map((e) => (
          <div key={e.keys}>
            <dt>
              <Keys keys={e.keys} />
            </dt>
            <dd>{i18n._(e.label)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function HotkeyHelp() {
  if (!helpOpen.value) return null;
  const global = listedHotkeys(globalHotkeys(routes, loggedIn.value, hasScope));
  const contextual = listedHotkeys(contextHotkeys.value);
  return (
    <Dialog title={t`Hotkeys`} onClose={() => (helpOpen.value = false)} testId="hotkey-help">
      <Section title={t`Global`} entries={global} />
      <Section title={t`This page`} entries={contextual} />
      {!global.length && !contextual.length && <p>{t`There are no hotkeys on this page.`}</p>}
      <p className="muted small">{t`Press ? to show or hide this list.`}</p>
    </Dialog>
  );
}
