import { t } from "@lingui/core/macro";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { online } from "./network";

/** A link to a screen that only works with the panel reachable: offline it is disabled and says why. */
export function OnlineLink({
  href,
  className,
  children,
}: {
  href: string;
  className?: string;
  children: ReactNode;
}) {
  if (online.value) {
    return (
      <Link href={href} className={className}>
        {children}
      </Link>
    );
  }
  return (
    <button type="button" className={className} disabled title={offlineReason()} data-testid="needs-network">
      {children}
    </button>
  );
}

export const offlineReason = () => t`Not available offline`;
