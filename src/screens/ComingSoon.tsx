import { useLingui } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import type { ScreenProps } from "../app/routes";
import { Panel } from "../components/Panel";

/** Placeholder for screens that later work builds; keeps navigation real meanwhile. */
export default function ComingSoon({ route }: ScreenProps) {
  const { i18n } = useLingui();
  return (
    <Panel title={i18n._(route.label)}>
      <p className="muted" data-testid="coming-soon">
        <Trans>This page is coming soon.</Trans>
      </p>
    </Panel>
  );
}
