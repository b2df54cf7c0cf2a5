import { type Static, Type } from "typebox";

/** Shapes that cross the panel↔node seam for ending SFTP sessions. */

/** Which sessions to end: every one of a user, or only those on one server. */
export const SftpSessionFilter = Type.Object(
  {
    userId: Type.Integer({ minimum: 0 }),
    serverId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type SftpSessionFilter = Static<typeof SftpSessionFilter>;

/** What the panel asks of a node about its open SFTP sessions. */
export interface NodeSftp {
  /**
   * Ends the matching sessions now (their open files are closed with them).
   * The panel calls it when a user signs out everywhere, changes their
   * password, is deleted or loses `server.sftp` on a server.
   */
  endSessions(filter: SftpSessionFilter): Promise<void>;
}
