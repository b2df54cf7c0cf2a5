const HISTORY_MAX = 100;

/** Commands sent per server, newest last; kept for this page's lifetime. */
const histories = new Map<string, string[]>();

export function historyOf(id: string): string[] {
  let list = histories.get(id);
  if (!list) {
    list = [];
    histories.set(id, list);
  }
  return list;
}

/** Steps through a command history the way a shell does with ↑ / ↓. */
export class CommandHistory {
  private index = -1;
  private draft = "";

  constructor(private readonly list: string[]) {}

  /** The entry one older than the one shown, or undefined at the oldest. */
  older(current: string): string | undefined {
    if (this.index + 1 >= this.list.length) return undefined;
    if (this.index === -1) this.draft = current;
    this.index++;
    return this.list[this.list.length - 1 - this.index];
  }

  /** The entry one newer, back to what was being typed. */
  newer(): string | undefined {
    if (this.index === -1) return undefined;
    this.index--;
    return this.index === -1 ? this.draft : this.list[this.list.length - 1 - this.index];
  }

  add(command: string): void {
    if (this.list[this.list.length - 1] !== command) this.list.push(command);
    if (this.list.length > HISTORY_MAX) this.list.splice(0, this.list.length - HISTORY_MAX);
    this.index = -1;
    this.draft = "";
  }
}
