import { createStore, del, get, keys, set, type UseStore } from "idb-keyval";
import type { Node } from "../api/nodes";
import type { Server } from "../api/servers";
import type { TemplateRepo, TemplateSummary } from "../api/templates";
import type { User } from "../api/users";
import type { KnownStatuses } from "./knownStatus";
import { owner as ownerNow, signedInUser } from "./owner";
import { LAST_KNOWN_DB, LAST_KNOWN_STORE } from "./storage";

// The last-known lists (DESIGN "last-known lists", issue 11): one table says which lists are kept
// and what a kept copy looks like (an old or foreign entry is ignored). Screens show a copy with
// its age, and each server's last status delivered with its own time (./knownStatus). Entries are stored per account and wiped at logout or when
// another account signs in on this device (./owner).

export type KnownRepo = TemplateRepo & { templates: TemplateSummary[] };

interface ListShapes {
  servers: { servers: Server[]; total: number };
  nodes: Node[];
  users: { users: User[]; more: boolean };
  templates: KnownRepo[];
  /** The signed-in account's e-mail, for the header's avatar offline. */
  self: { email: string };
  /** Each server's last status delivered, with its time (./knownStatus). */
  statuses: KnownStatuses;
}
export type ListName = keyof ListShapes;

const shapeOf: { [K in ListName]: (v: unknown) => boolean } = {
  servers: (v) => hasArray(v, "servers"),
  nodes: Array.isArray,
  users: (v) => hasArray(v, "users"),
  templates: Array.isArray,
  self: (v) => !!v && typeof (v as { email?: unknown }).email === "string",
  statuses: (v) => !!v && typeof v === "object" && !Array.isArray(v),
};

function hasArray(v: unknown, field: string): boolean {
  return !!v && typeof v === "object" && Array.isArray((v as Record<string, unknown>)[field]);
}

export interface Known<T> {
  value: T;
  /** When it was stored (ms since epoch). */
  at: number;
}

const PREFIX = "lastKnown.";
const key = (owner: number, list: ListName) => `${PREFIX}${owner}.${list}`;

let store: UseStore | undefined;
// Its own database (shared with the service worker's kept answers): wiping it touches nothing else.
const db = () => {
  if (!store) {
    store = createStore(LAST_KNOWN_DB, LAST_KNOWN_STORE);
    void wipeLegacy();
  }
  return store;
};

/** The signed-in account's last copy of a list. */
export async function lastKnown<K extends ListName>(list: K): Promise<Known<ListShapes[K]> | undefined> {
  const owner = signedInUser();
  if (owner === undefined) return undefined;
  try {
    const saved = await get<Known<unknown>>(key(owner, list), db());
    if (!saved || typeof saved.at !== "number" || !shapeOf[list](saved.value)) return undefined;
    return saved as Known<ListShapes[K]>;
  } catch {
    return undefined;
  }
}

/** Keeps a fresh copy, unless nobody is signed in any more (a late answer after logout). */
export async function remember<K extends ListName>(list: K, value: ListShapes[K]): Promise<void> {
  const owner = await ownerNow();
  if (owner === undefined) return;
  try {
    await set(key(owner, list), { value, at: Date.now() }, db());
  } catch {
    // not remembered: the next visit offline has nothing to show
  }
}

/** The kept lists a detail page may take its item from offline, and their items. */
const itemsOf = {
  nodes: (v: ListShapes["nodes"]): Node[] => v,
  users: (v: ListShapes["users"]): User[] => v.users,
};
export type ItemListName = keyof typeof itemsOf;
export type ItemOf<K extends ItemListName> = ReturnType<(typeof itemsOf)[K]>[number];

/** One item of a kept list, with the list's age (a node's or a user's page offline). */
export async function lastKnownItem<K extends ItemListName>(
  list: K,
  id: number,
): Promise<Known<ItemOf<K>> | undefined> {
  const kept = await lastKnown(list);
  if (!kept) return undefined;
  const items = (itemsOf[list] as (v: ListShapes[K]) => ItemOf<K>[])(kept.value);
  const item = items.find((i) => i?.id === id);
  return item ? { value: item, at: kept.at } : undefined;
}

/** What a server's page last showed (issue 11): the server, and the console's last lines. */
export interface KnownServerPage {
  server: Server;
  /** The account's scopes on it (which actions its page offers). */
  scopes: string[];
  console: string[];
}

const pageKey = (owner: number, id: string) => `${PREFIX}${owner}.server.${id}`;

export async function lastKnownServerPage(id: string): Promise<Known<KnownServerPage> | undefined> {
  const owner = signedInUser();
  if (owner === undefined) return undefined;
  try {
    const saved = await get<Known<KnownServerPage>>(pageKey(owner, id), db());
    const ok =
      saved &&
      typeof saved.at === "number" &&
      saved.value?.server &&
      Array.isArray(saved.value.console) &&
      Array.isArray(saved.value.scopes);
    return ok ? saved : undefined;
  } catch {
    return undefined;
  }
}

export async function rememberServerPage(id: string, value: KnownServerPage): Promise<void> {
  const owner = await ownerNow();
  if (owner === undefined) return;
  try {
    await set(pageKey(owner, id), { value, at: Date.now() }, db());
  } catch {
    // not remembered
  }
}

/** Copies kept by earlier versions, in idb-keyval's default database and not per account. */
async function wipeLegacy(): Promise<void> {
  try {
    const legacy = (await keys()).filter((k) => String(k).startsWith(PREFIX));
    await Promise.all(legacy.map((k) => del(k)));
  } catch {
    // storage blocked: nothing was kept
  }
}
