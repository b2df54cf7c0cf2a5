// Where the last-known data lives (issue 11), shared by the page and the service worker (sw/):
// one IndexedDB database, so that one `clear` at logout or at another account's sign-in wipes
// both the page's lists and the service worker's kept API answers.

export const LAST_KNOWN_DB = "outpost-last-known";
export const LAST_KNOWN_STORE = "lists";
/** Holds the signed-in account's id for the service worker (it cannot read localStorage). */
export const OWNER_KEY = "owner";
/** Set by the service worker on an answer served from IndexedDB: when it was read (ms since epoch). */
export const LAST_KNOWN_AT_HEADER = "x-outpost-last-known-at";

/**
 * One read-write transaction on the store, with no storage library (the login page imports this).
 * Opens like idb-keyval's createStore, so either may create the database. Never throws.
 */
export function withLastKnownStore(run: (store: IDBObjectStore) => void): Promise<void> {
  return new Promise((resolve) => {
    try {
      const open = indexedDB.open(LAST_KNOWN_DB);
      open.onupgradeneeded = () => open.result.createObjectStore(LAST_KNOWN_STORE);
      open.onerror = () => resolve();
      open.onsuccess = () => {
        const db = open.result;
        const done = () => {
          db.close();
          resolve();
        };
        try {
          const tx = db.transaction(LAST_KNOWN_STORE, "readwrite");
          tx.oncomplete = done;
          tx.onerror = done;
          tx.onabort = done;
          run(tx.objectStore(LAST_KNOWN_STORE));
        } catch {
          done();
        }
      };
    } catch {
      resolve();
    }
  });
}
