import type { Db } from '../../../storage/database';

/** Versions kept per path. */
export const HISTORY_DEPTH = 10;

/**
 * The editor's undo history of one conversation: the content a path had before each edit (null when the
 * edit created the file). Kept by the service in SQLite so it survives restarts; bash edits are not seen.
 */
export class EditHistory {
  constructor(
    private readonly db: Db,
    private readonly conversationId: string,
  ) {}

  push(path: string, previous: Buffer | null): void {
    const insert = this.db.prepare(
      `INSERT INTO edit_history (conversation_id, path, seq, content)
       VALUES (?, ?, COALESCE((SELECT MAX(seq) FROM edit_history WHERE conversation_id = ? AND path = ?), 0) + 1, ?)`,
    );
    const trim = this.db.prepare(
      `DELETE FROM edit_history WHERE conversation_id = ? AND path = ? AND seq NOT IN
         (SELECT seq FROM edit_history WHERE conversation_id = ? AND path = ? ORDER BY seq DESC LIMIT ?)`,
    );
    this.db.transaction(() => {
      insert.run(this.conversationId, path, this.conversationId, path, previous);
      trim.run(this.conversationId, path, this.conversationId, path, HISTORY_DEPTH);
    })();
  }

  /** Removes and returns the newest version, or undefined when there is none. */
  pop(path: string): { previous: Buffer | null } | undefined {
    const row = this.db
      .prepare(
        'SELECT seq, content FROM edit_history WHERE conversation_id = ? AND path = ? ORDER BY seq DESC LIMIT 1',
      )
      .get(this.conversationId, path) as { seq: number; content: Uint8Array | null } | undefined;
    if (!row) return undefined;
    this.db
      .prepare('DELETE FROM edit_history WHERE conversation_id = ? AND path = ? AND seq = ?')
      .run(this.conversationId, path, row.seq);
    return { previous: row.content && Buffer.from(row.content) };
  }
}
