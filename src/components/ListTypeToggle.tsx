import { t } from "@lingui/core/macro";
import { type ListType, listType, setListType } from "../state/listType";
import { ScreenIcon, type ScreenIconName } from "./screenIcons";
import "./controls.css";

/** Grid or plain list (spec §2.3), the choice shared by the lists and remembered. */
export function ListTypeToggle() {
  const current = listType.value;
  const choices: [ListType, ScreenIconName, string][] = [
    ["grid", "grid", t`Grid`],
    ["list", "list", t`List`],
  ];
  return (
    <fieldset className="segmented" aria-label={t`Layout`}>
      {choices.map(([value, icon, label]) => (
        <button
          key={value}
          type="button"
          className="icon-btn"
          aria-label={label}
          title={label}
          aria-pressed={current === value}
          onClick={() => setListType(value)}
        >
          <ScreenIcon name={icon} size={20} />
        </button>
      ))}
    </fieldset>
  );
}
