import type { Db } from '../storage/database';
import type {
  ExposedUrl,
  SandboxChange,
  SandboxProviderKind,
  SandboxRecord,
  SandboxStatus,
} from './sandbox-models';

interface Row {
  id: string;
  provider: SandboxProviderKind;
  spec_id: string;
  status: SandboxStatus;
  error: string | null;
  container_id: string | null;
  exposed_urls: string;
  created_at: string;
  last_used_at: string;
}

function fromRow(row: Row): SandboxRecord {
  return {
    id: row.id,
    provider: row.provider,
    specId: row.spec_id,
    status: row.status,
    error: row.error,
    containerId: row.container_id,
    exposedUrls: JSON.parse(row.exposed_urls) as ExposedUrl[],
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

const COLUMNS: Record<keyof SandboxChange, string> = {
  status: 'status',
  error: 'error',
  containerId: 'container_id',
  exposedUrls: 'exposed_urls',
};

/** The `sandboxes` table and the install id that labels this install's containers. */
export class SandboxStore {
  constructor(private readonly db: Db) {}

  /** Random per data folder; containers of other installs carry another one and are never touched. */
  instanceId(): string {
    const row = this.db.prepare("SELECT value FROM service_meta WHERE key = 'instance_id'").get() as
      { value: string } | undefined;
    if (!row) throw new Error('The install id is missing from the database');
    return row.value;
  }

  insert(record: SandboxRecord): void {
    this.db
      .prepare(
        `INSERT INTO sandboxes (id, provider, spec_id, status, error, container_id, exposed_urls, created_at, last_used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        record.id,
        record.provider,
        record.specId,
        record.status,
        record.error,
        record.containerId,
        JSON.stringify(record.exposedUrls),
        record.createdAt,
        record.lastUsedAt,
      );
  }

  get(id: string): SandboxRecord | null {
    const row = this.db.prepare('SELECT * FROM sandboxes WHERE id = ?').get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  all(): SandboxRecord[] {
    return (this.db.prepare('SELECT * FROM sandboxes ORDER BY created_at DESC, id').all() as Row[]).map(
      fromRow,
    );
  }

  /**
   * One page, newest first. MISSING sandboxes are listed only when asked for by status.
   * `after` is the (created_at, id) of the last item of the previous page.
   */
  page(options: { after: [string, string] | null; limit: number; status?: SandboxStatus }): SandboxRecord[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (options.status) {
      where.push('status = ?');
      params.push(options.status);
    } else {
      where.push("status != 'MISSING'");
    }
    if (options.after) {
      where.push('(created_at < ? OR (created_at = ? AND id > ?))');
      params.push(options.after[0], options.after[0], options.after[1]);
    }
    const sql = `SELECT * FROM sandboxes WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id LIMIT ?`;
    return (this.db.prepare(sql).all(...params, options.limit) as Row[]).map(fromRow);
  }

  update(id: string, change: SandboxChange): void {
    const entries = Object.entries(change) as [keyof SandboxChange, unknown][];
    if (entries.length === 0) return;
    const sets = entries.map(([key]) => `${COLUMNS[key]} = ?`).join(', ');
    const values = entries.map(([key, value]) => (key === 'exposedUrls' ? JSON.stringify(value) : value));
    this.db.prepare(`UPDATE sandboxes SET ${sets} WHERE id = ?`).run(...values, id);
  }

  touch(id: string, at: string): void {
    this.db.prepare('UPDATE sandboxes SET last_used_at = ? WHERE id = ?').run(at, id);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM sandboxes WHERE id = ?').run(id);
  }

  /** STARTING and RUNNING sandboxes: the ones `max_live_sandboxes` counts. */
  countLive(): number {
    const row = this.db
      .prepare("SELECT count(*) AS n FROM sandboxes WHERE status IN ('STARTING', 'RUNNING')")
      .get() as { n: number };
    return row.n;
  }

  /** RUNNING sandboxes, least recently used first. */
  runningByLastUse(): SandboxRecord[] {
    return (
      this.db
        .prepare("SELECT * FROM sandboxes WHERE status = 'RUNNING' ORDER BY last_used_at, created_at")
        .all() as Row[]
    ).map(fromRow);
  }
}
