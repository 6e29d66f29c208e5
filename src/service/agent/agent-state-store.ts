import type { Db, Statement } from '../storage/database';
import type { AgentState } from './agent-events';
import type { LlmToolCall } from './llm/llm-types';
import type { CallMetadata } from './call-metadata';
import type { ReplayProgress } from './replay';
import type { BudgetState } from './step-budget';

/** A model call waiting its turn (or the user's confirmation), as the loop keeps it. */
export interface SavedCall {
  call: LlmToolCall;
  thought: string;
  metadata: CallMetadata;
}

/** A call held for confirmation, with the arguments and risk it was assessed with. */
export interface SavedConfirmation extends SavedCall {
  args: Record<string, unknown>;
  risk: number;
}

/** What the agent loop needs to go on after a service restart (agent-behaviour §2.3, §2.7). */
export interface SavedAgentState extends BudgetState {
  state: AgentState;
  queue: SavedCall[];
  pending: SavedConfirmation | null;
  recalled: boolean;
  textTools: boolean;
  /** The shell's working directory at its last prompt. */
  workingDir: string | null;
  replay: ReplayProgress | null;
}

/** The `agent_states` table: one saved state per conversation, removed with the conversation. */
export class AgentStateStore {
  private readonly select: Statement;
  private readonly selectMany: Statement;
  private readonly upsert: Statement;

  constructor(db: Db) {
    this.select = db.prepare('SELECT data FROM agent_states WHERE conversation_id = ?');
    this.selectMany = db.prepare(
      'SELECT conversation_id, data FROM agent_states WHERE conversation_id IN (SELECT value FROM json_each(?))',
    );
    this.upsert = db.prepare(
      `INSERT INTO agent_states (conversation_id, data, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (conversation_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
    );
  }

  load(conversationId: string): SavedAgentState | null {
    const row = this.select.get(conversationId) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as SavedAgentState) : null;
  }

  /** The saved states of several conversations in one query, by conversation id (absent: none saved). */
  loadMany(conversationIds: string[]): Map<string, SavedAgentState> {
    if (conversationIds.length === 0) return new Map();
    const rows = this.selectMany.all(JSON.stringify(conversationIds)) as {
      conversation_id: string;
      data: string;
    }[];
    return new Map(rows.map((row) => [row.conversation_id, JSON.parse(row.data) as SavedAgentState]));
  }

  save(conversationId: string, state: SavedAgentState): void {
    this.upsert.run(conversationId, JSON.stringify(state), new Date().toISOString());
  }
}
