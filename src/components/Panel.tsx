import type { ReactNode } from "react";

/** A titled card, the basic building block of screens. */
export function Panel({
  title,
  children,
  className,
}: {
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <section className={className ? `panel ${className}` : "panel"}>
      {title && <h1 className="panel-title">{title}</h1>}
      {children}
    </section>
  );
}
