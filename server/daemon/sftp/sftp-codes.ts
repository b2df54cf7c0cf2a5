/**
 * SFTP version 3's open flags and status codes (draft-ietf-secsh-filexfer-02),
 * the values ssh2.utils.sftp holds: written here so that a session's code
 * does not load ssh2 at start (it loads with the first SFTP connection).
 */
export const OPEN_MODE = {
  READ: 0x01,
  WRITE: 0x02,
  APPEND: 0x04,
  CREAT: 0x08,
  TRUNC: 0x10,
  EXCL: 0x20,
} as const;

export const STATUS_CODE = { OK: 0, EOF: 1, NO_SUCH_FILE: 2, PERMISSION_DENIED: 3, FAILURE: 4 } as const;
