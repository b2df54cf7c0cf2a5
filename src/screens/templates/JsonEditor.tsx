import { type CSSProperties, type RefObject, useId, useRef } from "react";
import "../../components/code-area.css";

/** Selects `from..to` in the editor and scrolls it into view. */
export function revealRange(area: HTMLTextAreaElement, from: number, to: number): void {
  area.focus();
  area.setSelectionRange(from, to);
  const line = area.value.slice(0, from).split("\n").length - 1;
  const lineHeight = Number.parseFloat(getComputedStyle(area).lineHeight) || 20;
  area.scrollTop = Math.max(0, line * lineHeight - area.clientHeight / 3);
}

/**
 * The template as JSON text: a monospace text area with line numbers beside it; lines with a
 * problem are marked in the gutter. No wrapping, so numbers and lines stay side by side.
 */
export function JsonEditor({
  label,
  text,
  onText,
  badLines,
  areaRef,
  describedBy,
  invalid,
}: {
  label: string;
  text: string;
  onText: (text: string) => void;
  /** 1-based line numbers to mark. */
  badLines: ReadonlySet<number>;
  areaRef: RefObject<HTMLTextAreaElement | null>;
  describedBy?: string;
  invalid: boolean;
}) {
  const id = useId();
  const gutter = useRef<HTMLDivElement>(null);
  const lines = text.split("\n").length;

  return (
    <div className="code-area json-editor" style={{ "--lines": lines } as CSSProperties}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <div className="code-gutter json-gutter" ref={gutter} aria-hidden="true">
        {Array.from({ length: lines }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: line numbers are positions
          <div key={i} className={badLines.has(i + 1) ? "ln bad" : "ln"}>
            {i + 1}
          </div>
        ))}
      </div>
      <textarea
        id={id}
        ref={areaRef}
        className="code-text json-text"
        value={text}
        wrap="off"
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        autoCorrect="off"
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        data-testid="template-json"
        onChange={(e) => onText(e.currentTarget.value)}
        onScroll={(e) => {
          if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
        }}
      />
    </div>
  );
}
