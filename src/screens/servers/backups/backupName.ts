/** A name for a new backup: the local date and time, as a file would be named (2024-05-01 14:30). */
export function defaultBackupName(now = new Date()): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())} ${two(now.getHours())}:${two(now.getMinutes())}`;
}
