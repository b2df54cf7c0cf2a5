import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { CallOptions } from "../../api/client";
import { listNodes } from "../../api/nodes";
import { listServers } from "../../api/servers";
import { listAllTemplates } from "../../api/templates";
import { searchUsers } from "../../api/users";
import type { IconName } from "../../components/icons";
import { serverAddress } from "../../screens/servers/serverScopes";
import { templateHref } from "../../screens/templates/TemplateEntry";
import { hasScope } from "../../state/scopes";

// THE table of the top bar's search groups (spec §2.3): what each group searches, who sees it,
// and where a hit leads. The search box only walks this table.

/** At most this many hits per group (spec §9). */
export const HITS_PER_GROUP = 5;

export interface SearchHit {
  /** Unique within its group. */
  key: string;
  title: string;
  detail?: string;
  href: string;
}

export interface SearchGroup {
  id: string;
  label: MessageDescriptor;
  icon: IconName;
  /** Whether the signed-in user may see this group at all. */
  visible: () => boolean;
  search: (text: string, opts: CallOptions) => Promise<SearchHit[]>;
}

const contains = (value: string | undefined, text: string) =>
  !!value && value.toLowerCase().includes(text.toLowerCase());

export const searchGroups: readonly SearchGroup[] = [
  {
    id: "servers",
    label: msg`Servers`,
    icon: "server",
    // Always shown: the server list needs only a sign-in (it lists what the user may see).
    visible: () => true,
    search: async (text, opts) => {
      const page = await listServers({ page: 1, limit: HITS_PER_GROUP, name: text }, opts);
      return page.servers.map((s) => ({
        key: s.id,
        title: s.name,
        detail: [serverAddress(s), s.node.name].filter(Boolean).join(" · "),
        href: `/servers/view/${s.id}`,
      }));
    },
  },
  {
    id: "users",
    label: msg`Users`,
    icon: "users",
    visible: () => hasScope("users.info.search"),
    search: async (text, opts) =>
      (await searchUsers(text, HITS_PER_GROUP, opts)).map((u) => ({
        key: String(u.id),
        title: u.username,
        detail: u.email,
        href: `/users/view/${u.id}`,
      })),
  },
  {
    id: "nodes",
    label: msg`Nodes`,
    icon: "node",
    visible: () => hasScope("nodes.view"),
    search: async (text, opts) =>
      (await listNodes(opts))
        .filter((n) => contains(n.name, text))
        .slice(0, HITS_PER_GROUP)
        .map((n) => ({
          key: String(n.id),
          title: n.name,
          detail: `${n.publicHost}:${n.publicPort}`,
          href: `/nodes/view/${n.id}`,
        })),
  },
  {
    id: "templates",
    label: msg`Templates`,
    icon: "template",
    visible: () => hasScope("templates.view"),
    // Per repository, templates whose name or display matches; repositories with none are dropped.
    search: async (text, opts) =>
      (await listAllTemplates(opts))
        .flatMap((repo) =>
          repo.templates
            .filter((tpl) => contains(tpl.name, text) || contains(tpl.display, text))
            .map((tpl) => ({
              key: `${repo.id}/${tpl.name}`,
              title: tpl.display || tpl.name,
              detail: `${repo.name} · ${tpl.name}`,
              href: templateHref(repo.id, tpl.name),
            })),
        )
        .slice(0, HITS_PER_GROUP),
  },
];
