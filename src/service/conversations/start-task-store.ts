import type { AppConversationStartTask, StartTaskStatus } from '../../shared/api/app-conversations';
import type { Db } from '../storage/database';

interface Row {
  id: string;
  status: StartTaskStatus;
  detail: string | null;
  app_conversation_id: string | null;
  sandbox_id: string | null;
  agent_server_url: string | null;
  request: string;
  created_at: string;
  updated_at: string;
}

function fromRow(row: Row): AppConversationStartTask {
  return { ...row, created_by_user_id: null, request: JSON.parse(row.request) as Record<string, unknown> };
}

/** The `start_tasks` table: V1 start tasks, kept 30 days. */
export class StartTaskStore {
  constructor(private readonly db: Db) {}

  insert(task: AppConversationStartTask): void {
    this.db
      .prepare(
        `INSERT INTO start_tasks (id, status, detail, app_conversation_id, sandbox_id, agent_server_url, request, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        task.id,
        task.status,
        task.detail,
        task.app_conversation_id,
        task.sandbox_id,
        task.agent_server_url,
        JSON.stringify(task.request),
        task.created_at,
        task.updated_at,
      );
  }

  update(
    id: string,
    changes: Partial<
      Pick<
        AppConversationStartTask,
        'status' | 'detail' | 'app_conversation_id' | 'sandbox_id' | 'agent_server_url'
      >
    >,
  ): void {
    const keys = Object.keys(changes) as (keyof typeof changes)[];
    this.db
      .prepare(
        `UPDATE start_tasks SET ${keys.map((k) => `${k} = ?`).join(', ')}, updated_at = ? WHERE id = ?`,
      )
      .run(...keys.map((k) => changes[k] ?? null), new Date().toISOString(), id);
  }

  get(id: string): AppConversationStartTask | null {
    const row = this.db.prepare('SELECT * FROM start_tasks WHERE id = ?').get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** Tasks matching the filters in the given order, from `offset`. */
  search(
    filters: { conversationId?: string | undefined; createdAtGte?: string | undefined },
    order: string,
    offset: number,
    limit: number,
  ): AppConversationStartTask[] {
    const { where, params } = this.where(filters);
    const rows = this.db
      .prepare(`SELECT * FROM start_tasks ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...params, limit, offset) as Row[];
    return rows.map(fromRow);
  }

  count(filters: { conversationId?: string | undefined; createdAtGte?: string | undefined }): number {
    const { where, params } = this.where(filters);
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM start_tasks ${where}`).get(...params) as { n: number })
      .n;
  }

  deleteOlderThan(cutoff: string): void {
    this.db.prepare('DELETE FROM start_tasks WHERE created_at < ?').run(cutoff);
  }

  deleteForConversation(conversationId: string): void {
    this.db.prepare('DELETE FROM start_tasks WHERE app_conversation_id = ?').run(conversationId);
  }

  private where(filters: { conversationId?: string | undefined; createdAtGte?: string | undefined }) {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (filters.conversationId) {
      clauses.push('app_conversation_id = ?');
      params.push(filters.conversationId);
    }
    if (filters.createdAtGte) {
      clauses.push('created_at >= ?');
      params.push(filters.createdAtGte);
    }
    return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
  }
}
