import { Trans } from "@lingui/react/macro";
import { Suspense, useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import type { ScreenProps } from "../../app/routes";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { NotKeptOffline } from "../../offline/NotKeptOffline";
import { KeptServerPage } from "./KeptServerPage";
import { BackToServers, ServerHeadId } from "./ServerHeadId";
import { shownSections } from "./serverSections";
import { HeadStats } from "./view/HeadStats";
import { Lifecycle } from "./view/Lifecycle";
import { SectionHotkeys } from "./view/SectionHotkeys";
import { SectionTabs } from "./view/SectionTabs";
import { useServerPage } from "./view/useServerPage";
import "../../components/controls.css";
import "./servers.css";

function currentHash(): string {
  return typeof location === "undefined" ? "" : decodeURIComponent(location.hash.replace(/^#/, ""));
}

/** One server (spec §2.3): its header, then the sections of serverSections.ts the user may see, as tabs. */
export default function ServerView({ params }: ScreenProps) {
  const id = params.id ?? "";
  const { server, patchServer, scopes, can, missing, live, kept, known } = useServerPage(id);
  const [tab, setTab] = useState(currentHash);
  // Sections mount when first shown and then stay (hidden), keeping their state; the console
  // mounts at once so it collects output from the start.
  const opened = useRef(new Set(["console"]));

  useEffect(() => {
    const onHash = () => setTab(currentHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);

  if (missing) {
    return (
      <Panel title={<Trans>Server not found</Trans>}>
        <p>
          <Trans>There is no server with this id, or your account may not see it.</Trans>
        </p>
        <Link href="/servers">
          <Trans>Back to the servers</Trans>
        </Link>
      </Panel>
    );
  }
  if (!server && kept) {
    if (kept !== "none") return <KeptServerPage kept={kept} />;
    return (
      <NotKeptOffline back="/servers">
        <Trans>Back to the servers</Trans>
      </NotKeptOffline>
    );
  }
  if (!server || !scopes || !live) return <Spinner />;

  const sections = shownSections(can);
  const active = sections.find((s) => s.id === tab) ?? sections[0];
  const choose = (sectionId: string) => {
    setTab(sectionId);
    history.replaceState(history.state, "", `#${sectionId}`);
  };
  if (active) opened.current.add(active.id);

  return (
    <div className="server-view">
      <BackToServers />
      <header className="server-head panel">
        <ServerHeadId server={server} />
        <Lifecycle server={server} live={live} can={can} known={known} />
        {can("server.stats") && <HeadStats live={live} known={known} />}
      </header>
      {sections.length === 0 ? (
        <Panel>
          <p className="muted">
            <Trans>Your account may see this server but none of its sections.</Trans>
          </p>
        </Panel>
      ) : (
        <>
          <SectionHotkeys sections={sections} choose={choose} />
          <SectionTabs sections={sections} active={active?.id} choose={choose} />
          {sections.map(({ id: sectionId, screen: Screen }) =>
            opened.current.has(sectionId) ? (
              <div
                key={sectionId}
                id={`section-${sectionId}`}
                role="tabpanel"
                aria-labelledby={`tab-${sectionId}`}
                hidden={sectionId !== active?.id}
                className="panel server-section"
              >
                <Suspense fallback={<Spinner />}>
                  <Screen
                    server={server}
                    can={can}
                    active={sectionId === active?.id}
                    live={live}
                    onChanged={patchServer}
                  />
                </Suspense>
              </div>
            ) : null,
          )}
        </>
      )}
    </div>
  );
}
