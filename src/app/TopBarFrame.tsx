import type { ReactNode } from "react";
import { Link } from "wouter";
import { config } from "../state/config";
import "./topbar.css";

/**
 * The top bar as every page has it: the brand, with room before it (the menu button) and after it
 * (search, avatar). Signed out it is all there is; signed in, TopBar fills the rest.
 */
export function TopBarFrame({ lead, children }: { lead?: ReactNode; children?: ReactNode }) {
  return (
    <header className="topbar">
      {lead}
      <Link href="/" className="brand">
        {config.value.branding.name}
      </Link>
      {children ?? <div className="topbar-fill" />}
    </header>
  );
}
