import { signal } from "@preact/signals-react";
import { readLocal, registerPreference, savePreference } from "./preferences";

// Grid or plain list for the node, user and template lists (spec §2.3, theme setting listType);
// the choice is a user preference (`listType`, see preferences.ts).

export type ListType = "grid" | "list";
export const LIST_TYPE_KEY = "listType" as const;

const parse = (value: string | null): ListType => (value === "list" ? "list" : "grid");

export const listType = signal<ListType>(
  typeof window === "undefined" ? "grid" : parse(readLocal(LIST_TYPE_KEY)),
);
registerPreference(LIST_TYPE_KEY, (value) => {
  listType.value = parse(value);
});

export function setListType(value: ListType): void {
  listType.value = value;
  savePreference(LIST_TYPE_KEY, value);
}
