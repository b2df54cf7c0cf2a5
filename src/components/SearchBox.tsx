import { Icon } from "./icons";
import "./search-box.css";

/** A filter box: searches as you type, Escape clears it. */
export function SearchBox({
  value,
  onValue,
  label,
  testId,
}: {
  value: string;
  onValue: (v: string) => void;
  label: string;
  testId?: string;
}) {
  return (
    <div className="search-box">
      <Icon name="search" size={18} />
      <input
        type="search"
        value={value}
        placeholder={label}
        aria-label={label}
        autoComplete="off"
        spellCheck={false}
        data-testid={testId}
        onChange={(e) => onValue(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape" && value) {
            e.stopPropagation();
            onValue("");
          }
        }}
      />
    </div>
  );
}
