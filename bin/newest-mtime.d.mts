/** The newest modification time below a path (0 when it does not exist). */
export function newest(target: string): number;
