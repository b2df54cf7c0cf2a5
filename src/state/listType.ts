import { signal } from "@preact/signals-react";

// Grid or plain list for the node, user and template lists (spec §2.3, theme setting listType);
// the choice persists in localStorage `listType`.

export type ListType = "grid" | "list";
export const LIST_TYPE_KEY = "listType";

function read(): ListType {
  try {
    return localStorage.getItem(LIST_TYPE_KEY) === "list" ? "list" : "grid";
  } catch {
    return "grid";
  }
}

export const listType = signal<ListType>(typeof window === "undefined" ? "grid" : read());

export function setListType(value: ListType): void {
  listType.value = value;
  try {
    localStorage.setItem(LIST_TYPE_KEY, value);
  } catch {
    // kept for this page only
  }
}
