import { parseArgs } from "node:util";
import { ApiError } from "../errors.ts";
import type { PanelServices } from "../panel/services.ts";
import { promptSecret } from "./prompt.ts";

/** `outpost user add|passwd`: account tasks against the panel's database. */
export async function userCommand(services: PanelServices, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      username: { type: "string" },
      password: { type: "string" },
      admin: { type: "boolean", default: false },
    },
  });
  try {
    if (action === "add") {
      if (!values.email || !values.username)
        throw new Error("usage: outpost user add --email E --username U [--password P] [--admin]");
      const password = values.password ?? (await promptSecret("Password: "));
      // An administrator holds everything; a plain user can sign in and manage their account.
      const scopes = values.admin ? ["admin"] : ["login", "self.edit", "self.clients"];
      const user = await services.accounts.create({
        email: values.email,
        username: values.username,
        password,
        scopes,
      });
      console.log(
        `created ${values.admin ? "administrator" : "user"} ${user.username} <${user.email}> (id ${user.id})`,
      );
    } else if (action === "passwd") {
      if (!values.email) throw new Error("usage: outpost user passwd --email E [--password P]");
      const user = await services.accounts.byEmail(values.email);
      if (!user) throw new Error(`no user with e-mail ${values.email}`);
      const password = values.password ?? (await promptSecret("New password: "));
      await services.accounts.setPassword(user.id, password);
      await services.sessions.revokeAllOf(user.id);
      console.log(`password changed for ${user.email}; their sessions were ended`);
    } else {
      throw new Error("usage: outpost user add|passwd …");
    }
  } catch (err) {
    if (err instanceof ApiError) {
      throw new Error(`${err.code}${err.metadata ? ` ${JSON.stringify(err.metadata)}` : ""}: ${err.message}`);
    }
    throw err;
  }
}
