import { msg, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { lastKnownAt } from "../../api/client";
import { isApiError } from "../../api/errors";
import { listUsers, searchUsers, type User } from "../../api/users";
import { pause } from "../../app/pause";
import { useLoad } from "../../app/useLoad";
import { ItemEntry, ItemList } from "../../components/ItemList";
import { Icon } from "../../components/icons";
import { NotPermitted } from "../../components/NotPermitted";
import { SearchBox } from "../../components/SearchBox";
import { Spinner } from "../../components/Spinner";
import { LastKnownNote } from "../../offline/LastKnownNote";
import { lastKnown, remember } from "../../offline/lastKnown";
import { backOnline, online } from "../../offline/network";
import { listType } from "../../state/listType";
import { hasScope } from "../../state/scopes";
import { ListHead, ShowMore } from "../ListParts";
import { useListHotkeys } from "../useListHotkeys";
import "../../components/controls.css";
import "./users.css";

const PAGE_SIZE = 50;
/** Typing pauses this long before the list asks the server (spec §9, as the global search). */
const SEARCH_PAUSE_MS = 500;
const SEARCH_LIMIT = 100;

function UserEntry({ user }: { user: User }) {
  return (
    <ItemEntry
      href={`/users/view/${user.id}`}
      testId="user-entry"
      icon={<Icon name="account" size={22} />}
      name={user.username}
      detail={user.email}
      side={
        user.otpActive ? (
          <span className="tag">
            <Trans>Two-factor</Trans>
          </span>
        ) : undefined
      }
    />
  );
}

/** `at`: when it was read; `fresh`: this visit's own answer (not the last-known copy). */
type Listing =
  | { users: User[]; more: boolean; page: number; at: number; fresh: boolean }
  | "failed"
  | "refused";

export default function UserList() {
  useListHotkeys(hasScope("users.info.edit") ? { label: msg`New user`, href: "/users/new" } : undefined);
  const [search, setSearch] = useState("");
  const [loadingMore, setLoadingMore] = useState(false);
  const canList = hasScope("users.info.search");
  const text = search.trim();

  // The last-known first page while the fresh one loads (or cannot: offline).
  const cached = useLoad(canList && (() => lastKnown("users")), [canList]).data;

  // Read on a new search (after a pause in typing), and again when the panel is back in reach.
  const read = useLoad<Exclude<Listing, "failed">>(
    canList &&
      (async (signal) => {
        if (text) await pause(SEARCH_PAUSE_MS, signal);
        try {
          if (text) {
            const users = await searchUsers(text, SEARCH_LIMIT, { exempt: [403] });
            return { users, more: false, page: 1, at: Date.now(), fresh: true };
          }
          const page = await listUsers({ page: 1, limit: PAGE_SIZE }, { exempt: [403] });
          const more = page.paging.total > page.users.length;
          // Offline, the service worker answers with its last-known copy: shown with its age.
          const kept = lastKnownAt(page);
          if (kept === undefined) void remember("users", { users: page.users, more });
          return { users: page.users, more, page: 1, at: kept ?? Date.now(), fresh: kept === undefined };
        } catch (err) {
          if (isApiError(err) && err.status === 403) return "refused";
          throw err;
        }
      }),
    [search, canList, backOnline.value],
    { keep: true },
  );
  const setListing = read.setData;
  const kept = cached && { ...cached.value, page: 1, at: cached.at, fresh: false };
  // A shown list stays when a read fails (offline): better than an error line.
  const listing: Listing | undefined =
    read.error === undefined
      ? (read.data ?? kept)
      : typeof read.data === "object" && !text
        ? read.data
        : (!text && kept) || "failed";

  if (!hasScope("users.info.view")) return <NotPermitted />;

  const loadMore = async () => {
    if (typeof listing !== "object" || loadingMore) return;
    setLoadingMore(true);
    try {
      const next = await listUsers({ page: listing.page + 1, limit: PAGE_SIZE });
      const users = [
        ...listing.users,
        ...next.users.filter((u) => !listing.users.some((o) => o.id === u.id)),
      ];
      setListing({
        users,
        more: next.paging.page * next.paging.pageSize < next.paging.total,
        page: listing.page + 1,
        at: listing.at,
        fresh: listing.fresh,
      });
    } catch {
      // the global handler says why
    } finally {
      setLoadingMore(false);
    }
  };

  const old = typeof listing === "object" && (!listing.fresh || !online.value);
  return (
    <section className="panel">
      <ListHead
        title={<Trans>Users</Trans>}
        create={hasScope("users.info.edit") && { href: "/users/new", label: <Trans>New user</Trans> }}
      />
      {!canList || listing === "refused" ? (
        <p className="muted" data-testid="users-not-listed">
          <Trans>Your account may not list users.</Trans>
        </p>
      ) : (
        <>
          <div className="user-search">
            <SearchBox value={search} onValue={setSearch} label={t`Name or e-mail`} testId="user-search" />
          </div>
          {listing === undefined ? (
            <Spinner />
          ) : listing === "failed" ? (
            <p className="muted">
              <Trans>The users could not be loaded.</Trans>
            </p>
          ) : listing.users.length === 0 ? (
            <p className="muted" data-testid="no-users">
              {search.trim() ? <Trans>No user matches.</Trans> : <Trans>There are no users yet.</Trans>}
            </p>
          ) : (
            <>
              {old && <LastKnownNote at={listing.at} />}
              <ItemList layout={listType.value} testId="user-list">
                {listing.users.map((u) => (
                  <UserEntry key={u.id} user={u} />
                ))}
              </ItemList>
              {listing.more && !old && <ShowMore onClick={loadMore} disabled={loadingMore} />}
            </>
          )}
        </>
      )}
    </section>
  );
}
