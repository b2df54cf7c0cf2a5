import type { Server } from "../../api/servers";
import type { ServerLive } from "../../state/serverLive";
import type { ServerCan } from "./serverScopes";

/** What every section of the server view receives. */
export interface SectionProps {
  server: Server;
  can: ServerCan;
  /** Whether the section is the one shown (sections stay mounted, hidden, once opened). */
  active: boolean;
  /** The view's one live connection (console, status, a move's progress). */
  live: ServerLive;
  /** The section changed the server (renamed, moved, a new type): the view shows it at once. */
  onChanged: (changes: Partial<Server>) => void;
}
