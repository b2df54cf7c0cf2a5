import { t } from "@lingui/core/macro";

/**
 * A task operation's name in the page's language, for the editor's type picker and the console's
 * run lines (kept apart from the editor's other rules so the console loads only this).
 */
export const operationLabel = (type: string): string =>
  ({
    console: t`Send a console line`,
    command: t`Run a command`,
    writefile: t`Write a file`,
    sleep: t`Wait`,
    download: t`Download a file`,
    start: t`Start the server`,
    stop: t`Stop the server`,
    restart: t`Restart the server`,
    kill: t`Kill the server`,
    backup: t`Make a backup`,
  })[type] ?? type;
