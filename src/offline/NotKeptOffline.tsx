import type { ReactNode } from "react";
import { Link } from "wouter";
import { Panel } from "../components/Panel";
import { offlineReason } from "./NeedsNetwork";

/** A page offline that this device never saw: said plainly, with the way back to its list. */
export function NotKeptOffline({ back, children }: { back: string; children: ReactNode }) {
  return (
    <Panel title={offlineReason()}>
      <Link href={back}>{children}</Link>
    </Panel>
  );
}
