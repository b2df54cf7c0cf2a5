import { Trans } from "@lingui/react/macro";
import { NotPermitted } from "../../components/NotPermitted";
import { hasScope } from "../../state/scopes";
import { ActivityLog } from "./ActivityLog";
import "../../components/screen-head.css";

/** Everyone's activity, for administrators: filters, search and the exports. */
export default function ActivityPage() {
  if (!hasScope("admin")) return <NotPermitted />;
  return (
    <section className="panel">
      <header className="screen-head">
        <h1 className="panel-title">
          <Trans>Activity</Trans>
        </h1>
      </header>
      <ActivityLog scope={{ kind: "all" }} filters />
    </section>
  );
}
