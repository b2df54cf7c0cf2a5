import type { Server } from "../../api/servers";
import type { ServerCan } from "./serverScopes";

/** What every section of the server view receives. */
export interface SectionProps {
  server: Server;
  can: ServerCan;
  /** Whether the section is the one shown (sections stay mounted, hidden, once opened). */
  active: boolean;
}
