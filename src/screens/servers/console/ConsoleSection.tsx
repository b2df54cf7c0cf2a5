import type { SectionProps } from "../sectionProps";
import { ServerConsole } from "./ServerConsole";

/** The console as a section of the server view: sending takes server.console.send too. */
export function ConsoleSection({ live, can, active }: SectionProps) {
  return <ServerConsole live={live} canSend={can("server.console.send")} active={active} />;
}
