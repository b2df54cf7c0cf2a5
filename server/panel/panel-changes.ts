/**
 * What a write changed, told once it is done (after its transaction), to those who follow it
 * rather than read again on a timer: the alert watch follows the set of servers and who may see
 * them ("rights": a grant, a revocation, a change of global scopes). "elsewhere" is another connection's commit heard by notification (PostgreSQL shared by
 * several panels: write-notifications.ts), which names no table.
 */
export type PanelChange = "servers" | "rights" | "elsewhere";

export class PanelChanges {
  private readonly listeners = new Set<(change: PanelChange) => void>();

  /** Follows the changes; answers the unsubscribe. */
  on(listener: (change: PanelChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  tell(change: PanelChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
