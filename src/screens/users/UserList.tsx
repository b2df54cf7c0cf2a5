import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { isApiError } from "../../api/errors";
import { listUsers, searchUsers, type User } from "../../api/users";
import { ItemEntry, ItemList } from "../../components/ItemList";
import { Icon } from "../../components/icons";
import { ListTypeToggle } from "../../components/ListTypeToggle";
import { NotPermitted } from "../../components/NotPermitted";
import { SearchBox } from "../../components/SearchBox";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { listType } from "../../state/listType";
import { hasScope } from "../../state/scopes";
import "../../components/controls.css";
import "../../components/screen-head.css";
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

type Listing = { users: User[]; more: boolean; page: number } | "failed" | "refused";

export default function UserList() {
  const [search, setSearch] = useState("");
  const [listing, setListing] = useState<Listing>();
  const [loadingMore, setLoadingMore] = useState(false);
  const canList = hasScope("users.info.search");

  useEffect(() => {
    if (!canList) return;
    let live = true;
    const text = search.trim();
    const load = async () => {
      try {
        if (text) {
          const users = await searchUsers(text, SEARCH_LIMIT, { exempt: [403] });
          if (live) setListing({ users, more: false, page: 1 });
        } else {
          const page = await listUsers({ page: 1, limit: PAGE_SIZE }, { exempt: [403] });
          if (live) setListing({ users: page.users, more: page.paging.total > page.users.length, page: 1 });
        }
      } catch (err) {
        if (live) setListing(isApiError(err) && err.status === 403 ? "refused" : "failed");
      }
    };
    const timer = setTimeout(load, text ? SEARCH_PAUSE_MS : 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search, canList]);

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
      });
    } catch {
      // the global handler says why
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <section className="panel">
      <header className="screen-head">
        <h1 className="panel-title">
          <Trans>Users</Trans>
        </h1>
        <div className="screen-actions">
          <ListTypeToggle />
          {hasScope("users.info.edit") && (
            <Link href="/users/new" className="btn">
              <ScreenIcon name="plus" size={18} />
              <Trans>New user</Trans>
            </Link>
          )}
        </div>
      </header>
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
              <ItemList layout={listType.value} testId="user-list">
                {listing.users.map((u) => (
                  <UserEntry key={u.id} user={u} />
                ))}
              </ItemList>
              {listing.more && (
                <div className="list-more">
                  <button type="button" className="btn btn-outline" onClick={loadMore} disabled={loadingMore}>
                    <Trans>Show more</Trans>
                  </button>
                </div>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
