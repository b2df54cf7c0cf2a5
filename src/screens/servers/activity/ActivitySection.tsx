import { ActivityLog } from "../../activity/ActivityLog";
import type { SectionProps } from "../sectionProps";

/** Who did what on this server (server.activity.view): API changes, SFTP writes, task runs. */
export default function ActivitySection({ server }: SectionProps) {
  return <ActivityLog scope={{ kind: "server", id: server.id }} filters />;
}
