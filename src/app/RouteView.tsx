import { Trans } from "@lingui/react/macro";
import { Suspense, useEffect } from "react";
import { Redirect, useLocation } from "wouter";
import { Panel } from "../components/Panel";
import { Spinner } from "../components/Spinner";
import { hasScopeIn, scopes } from "../state/scopes";
import { loggedIn } from "../state/session";
import { decide } from "./access";
import { makeReturnTo, saveReturnTo } from "./returnTo";
import { findRoute } from "./routeMatch";
import { routes } from "./routes";

function NotFound() {
  return (
    <Panel title={<Trans>Page not found</Trans>}>
      <p>
        <Trans>There is nothing at this address.</Trans>
      </p>
    </Panel>
  );
}

function Forbidden() {
  return (
    <Panel title={<Trans>Permission denied</Trans>}>
      <p>
        <Trans>Your account may not open this page.</Trans>
      </p>
    </Panel>
  );
}

/** The router guard: picks the route from the table, applies its access rule, renders its screen. */
export function RouteView() {
  const [path] = useLocation();
  const signedIn = loggedIn.value;
  const held = scopes.value;
  const hit = findRoute(routes, path);
  const decision = hit ? decide(hit.route, signedIn, (s) => hasScopeIn(held, s)) : null;

  // Scroll to the top on navigation unless the address names an anchor (spec §2.2).
  useEffect(() => {
    if (!path) return;
    if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [path]);

  if (!hit || !decision) return <NotFound />;
  if (decision.type === "redirect") {
    if (decision.rememberTarget) {
      try {
        saveReturnTo(sessionStorage, makeReturnTo(routes, location.pathname, location.search, location.hash));
      } catch {
        // storage blocked: login will land on the server list
      }
    }
    return <Redirect to={decision.to} replace />;
  }
  if (decision.type === "forbidden") return <Forbidden />;
  const Screen = hit.route.screen;
  if (!Screen) return <NotFound />;
  return (
    <Suspense fallback={<Spinner />}>
      <Screen key={hit.route.path} params={hit.params} route={hit.route} />
    </Suspense>
  );
}
