import type { AgentKind } from '../../shared/api/agents';
import type { ConversationStatus } from '../../shared/api/conversations';
import type { ReplayStep } from '../agent/replay';
import type { MCPConfig } from '../../shared/api/mcp';
import type { Db } from '../storage/database';
import type { EgressPreset } from '../sandbox/link/egress-policy';

/** What a conversation was started with, kept to run its start pipeline again after a restart. */
export interface StartRequest {
  initial_user_msg: string | null;
  image_urls: string[];
  conversation_instructions: string | null;
  /** The steps of `replay_json`, replayed before `initial_user_msg` (absent in records made without one). */
  replay?: ReplayStep[] | null;
  /** The request's own MCP servers, without their `api_key`s (those are in the secret store). */
  mcp_config?: MCPConfig | null;
  /** False when the conversation opted out of the user's custom secrets (absent: they are exposed). */
  expose_custom_secrets?: boolean;
  /** The conversation's own egress policy (absent: the setting's). */
  network_policy?: EgressPreset;
}

export interface ConversationRecord {
  id: string;
  title: string;
  titleIsCustom: boolean;
  status: ConversationStatus;
  runtimeStatus: string | null;
  agentState: string | null;
  selectedRepository: string | null;
  selectedBranch: string | null;
  gitProvider: string | null;
  trigger: string | null;
  prNumber: number[];
  version: 'V0' | 'V1';
  sandboxId: string | null;
  parentConversationId: string | null;
  llmModel: string | null;
  /** The agent the conversation runs: Dockhand's own or a coding agent over ACP. */
  agent: AgentKind;
  /** The ACP session of a coding agent, loaded again when the agent restarts (null: none yet). */
  acpSession: string | null;
  request: StartRequest;
  createdAt: string;
  lastUpdatedAt: string;
}

interface Row {
  id: string;
  title: string;
  title_is_custom: number;
  status: ConversationStatus;
  runtime_status: string | null;
  agent_state: string | null;
  selected_repository: string | null;
  selected_branch: string | null;
  git_provider: string | null;
  trigger: string | null;
  pr_number: string;
  conversation_version: 'V0' | 'V1';
  sandbox_id: string | null;
  parent_conversation_id: string | null;
  llm_model: string | null;
  agent: AgentKind;
  acp_session: string | null;
  request: string;
  created_at: string;
  last_updated_at: string;
}

function fromRow(row: Row): ConversationRecord {
  return {
    id: row.id,
    title: row.title,
    titleIsCustom: row.title_is_custom === 1,
    status: row.status,
    runtimeStatus: row.runtime_status,
    agentState: row.agent_state,
    selectedRepository: row.selected_repository,
    selectedBranch: row.selected_branch,
    gitProvider: row.git_provider,
    trigger: row.trigger,
    prNumber: JSON.parse(row.pr_number) as number[],
    version: row.conversation_version,
    sandboxId: row.sandbox_id,
    parentConversationId: row.parent_conversation_id,
    llmModel: row.llm_model,
    agent: row.agent,
    acpSession: row.acp_session,
    request: JSON.parse(row.request) as StartRequest,
    createdAt: row.created_at,
    lastUpdatedAt: row.last_updated_at,
  };
}

const COLUMNS: Record<keyof Omit<ConversationRecord, 'id'>, string> = {
  title: 'title',
  titleIsCustom: 'title_is_custom',
  status: 'status',
  runtimeStatus: 'runtime_status',
  agentState: 'agent_state',
  selectedRepository: 'selected_repository',
  selectedBranch: 'selected_branch',
  gitProvider: 'git_provider',
  trigger: 'trigger',
  prNumber: 'pr_number',
  version: 'conversation_version',
  sandboxId: 'sandbox_id',
  parentConversationId: 'parent_conversation_id',
  llmModel: 'llm_model',
  agent: 'agent',
  acpSession: 'acp_session',
  request: 'request',
  createdAt: 'created_at',
  lastUpdatedAt: 'last_updated_at',
};

function toColumn(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Array.isArray(value) || (value !== null && typeof value === 'object')) return JSON.stringify(value);
  return value;
}

export interface SearchFilters {
  titleContains?: string | undefined;
  createdAtGte?: string | undefined;
  createdAtLt?: string | undefined;
  updatedAtGte?: string | undefined;
  updatedAtLt?: string | undefined;
  sandboxId?: string | undefined;
  includeSubConversations: boolean;
}

function searchWhere(filters: SearchFilters): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    clauses.push(clause);
    params.push(value);
  };
  if (filters.titleContains)
    add("title LIKE ? ESCAPE '\\'", `%${filters.titleContains.replace(/[\\%_]/g, '\\$&')}%`);
  if (filters.createdAtGte) add('created_at >= ?', filters.createdAtGte);
  if (filters.createdAtLt) add('created_at < ?', filters.createdAtLt);
  if (filters.updatedAtGte) add('last_updated_at >= ?', filters.updatedAtGte);
  if (filters.updatedAtLt) add('last_updated_at < ?', filters.updatedAtLt);
  if (filters.sandboxId) add('sandbox_id = ?', filters.sandboxId);
  if (!filters.includeSubConversations) clauses.push('parent_conversation_id IS NULL');
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** The `conversations` table. */
export class ConversationStore {
  constructor(private readonly db: Db) {}

  insert(record: ConversationRecord): void {
    const { id, ...rest } = record;
    const keys = Object.keys(rest) as (keyof typeof COLUMNS)[];
    this.db
      .prepare(
        `INSERT INTO conversations (id, ${keys.map((k) => COLUMNS[k]).join(', ')}) VALUES (?, ${keys.map(() => '?').join(', ')})`,
      )
      .run(id, ...keys.map((k) => toColumn(rest[k])));
  }

  get(id: string): ConversationRecord | null {
    const row = this.db.prepare('SELECT * FROM conversations WHERE id = ?').get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  update(id: string, changes: Partial<Omit<ConversationRecord, 'id'>>): void {
    const keys = Object.keys(changes) as (keyof typeof COLUMNS)[];
    if (keys.length === 0) return;
    this.db
      .prepare(`UPDATE conversations SET ${keys.map((k) => `${COLUMNS[k]} = ?`).join(', ')} WHERE id = ?`)
      .run(...keys.map((k) => toColumn(changes[k])), id);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM conversations WHERE id = ?').run(id);
  }

  /** Newest first (created_at desc, id asc), after the cursor position, with optional filters. */
  page(options: {
    after?: { createdAt: string; id: string } | undefined;
    limit: number;
    selectedRepository?: string | undefined;
    trigger?: string | undefined;
    includeSubConversations: boolean;
  }): ConversationRecord[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (options.after) {
      where.push('(created_at < ? OR (created_at = ? AND id > ?))');
      params.push(options.after.createdAt, options.after.createdAt, options.after.id);
    }
    if (options.selectedRepository) {
      where.push('selected_repository = ?');
      params.push(options.selectedRepository);
    }
    if (options.trigger) {
      where.push('trigger = ?');
      params.push(options.trigger);
    }
    if (!options.includeSubConversations) where.push('parent_conversation_id IS NULL');
    const rows = this.db
      .prepare(
        `SELECT * FROM conversations ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY created_at DESC, id ASC LIMIT ?`,
      )
      .all(...params, options.limit) as Row[];
    return rows.map(fromRow);
  }

  /** V1 search: the filters, in `order` (an ORDER BY clause of this table's columns), from `offset`. */
  search(filters: SearchFilters, order: string, offset: number, limit: number): ConversationRecord[] {
    const { where, params } = searchWhere(filters);
    const rows = this.db
      .prepare(`SELECT * FROM conversations ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...params, limit, offset) as Row[];
    return rows.map(fromRow);
  }

  count(filters: SearchFilters): number {
    const { where, params } = searchWhere(filters);
    return (
      this.db.prepare(`SELECT COUNT(*) AS n FROM conversations ${where}`).get(...params) as { n: number }
    ).n;
  }

  /** Every conversation that the last run left STARTING or RUNNING: after a restart all are STOPPED. */
  stopAll(now: string): void {
    this.db
      .prepare(
        `UPDATE conversations SET status = 'STOPPED', runtime_status = NULL, last_updated_at = ? WHERE status != 'STOPPED'`,
      )
      .run(now);
  }

  childrenOf(id: string): string[] {
    return (
      this.db.prepare('SELECT id FROM conversations WHERE parent_conversation_id = ?').all(id) as {
        id: string;
      }[]
    ).map((r) => r.id);
  }

  bySandbox(sandboxId: string): string[] {
    return (
      this.db.prepare('SELECT id FROM conversations WHERE sandbox_id = ?').all(sandboxId) as { id: string }[]
    ).map((r) => r.id);
  }
}
