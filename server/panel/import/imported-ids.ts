import type { Db } from "../../db/database.ts";

/** The table of what was imported (0028): source ids → ours, so a second run changes nothing. */
export class ImportedIds {
  constructor(
    private readonly db: Db,
    private readonly source: string,
  ) {}

  async all(): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom("imported")
      .select(["kind", "source_id", "our_id"])
      .where("source", "=", this.source)
      .execute();
    return new Map(rows.map((r) => [`${r.kind}:${r.source_id}`, r.our_id]));
  }

  async record(kind: string, sourceId: number | string, ourId: number | string): Promise<void> {
    await this.db
      .insertInto("imported")
      .values({
        source: this.source,
        kind,
        source_id: String(sourceId),
        our_id: String(ourId),
        created_at: Date.now(),
      })
      .onConflict((oc) => oc.columns(["source", "kind", "source_id"]).doNothing())
      .execute();
  }
}
