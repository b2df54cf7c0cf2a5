import { msg } from "@lingui/core/macro";
import type { ScopeGroup } from "../servers/scopes/scopeLabels";

// A user's global scopes (reference §2.1) in groups with labels people understand, for the user
// view's checkboxes. `oauth2.auth` and `panel` are left out: no route checks them.

export const globalScopeGroups: ScopeGroup[] = [
  {
    id: "account",
    label: msg`Account`,
    scopes: [
      { scope: "login", label: msg`Sign in` },
      { scope: "self.edit", label: msg`Change their own account` },
      { scope: "self.clients", label: msg`Manage their own OAuth clients` },
    ],
  },
  {
    id: "servers",
    label: msg`Servers`,
    scopes: [{ scope: "server.create", label: msg`Create servers` }],
  },
  {
    id: "nodes",
    label: msg`Nodes`,
    scopes: [
      { scope: "nodes.view", label: msg`See nodes` },
      { scope: "nodes.create", label: msg`Add nodes` },
      { scope: "nodes.edit", label: msg`Change nodes` },
      { scope: "nodes.delete", label: msg`Delete nodes` },
      { scope: "nodes.deploy", label: msg`See how to deploy a node (its secret)` },
    ],
  },
  {
    id: "templates",
    label: msg`Templates`,
    scopes: [
      { scope: "templates.view", label: msg`See templates` },
      { scope: "templates.local.edit", label: msg`Change local templates` },
      { scope: "templates.repo.create", label: msg`Add template repositories` },
      { scope: "templates.repo.delete", label: msg`Remove template repositories` },
    ],
  },
  {
    id: "users",
    label: msg`Users`,
    scopes: [
      { scope: "users.info.search", label: msg`Search users` },
      { scope: "users.info.view", label: msg`See users` },
      { scope: "users.info.edit", label: msg`Create, change and delete users` },
      { scope: "users.perms.view", label: msg`See users' permissions` },
      { scope: "users.perms.edit", label: msg`Change users' permissions` },
    ],
  },
  {
    id: "panel",
    label: msg`Panel`,
    scopes: [
      { scope: "settings.edit", label: msg`Change the panel's settings` },
      { scope: "admin", label: msg`Administrator: everything, on every server` },
    ],
  },
];
