export type ConfirmationState = 'awaiting_confirmation' | 'confirmed' | 'rejected' | null;

interface RowBase {
  /** Stable across updates: the id of the event that opened the row. */
  key: string;
  id: number;
  /** When the event that opened the row happened (ISO 8601). */
  at: string;
}

/** Something the agent did that has an answer: a command, a file edit or a file read. */
interface ToolRow extends RowBase {
  thought: string;
  confirmation: ConfirmationState;
  risk: unknown;
  /** The error that answered it instead of a result (stopped, not executed, failed). */
  error: string | null;
  rejected: boolean;
}

/** Code a repository brings (setup script, git hook, microagent MCP server), shown before it may run. */
export interface RepositoryCode {
  id: string;
  kind: 'setup_script' | 'git_hook' | 'mcp_server';
  name: string;
  content: string;
}

export interface CommandRow extends ToolRow {
  kind: 'command';
  /** Set when the command runs a repository's own code: what it is and its text. */
  code?: RepositoryCode;
  command: string;
  source: string;
  output: string | null;
  exitCode: number | null;
  /** Where the command ran, when its result says. */
  workingDir: string | null;
  /** When its result came (ISO 8601), for its duration. */
  endedAt: string | null;
}

export interface EditRow extends ToolRow {
  kind: 'edit';
  path: string;
  operation: string;
  diff: string | null;
  output: string | null;
}

export interface ReadRow extends ToolRow {
  kind: 'read';
  path: string;
  output: string | null;
}

export type TimelineRow =
  | CommandRow
  | EditRow
  | ReadRow
  | (RowBase & { kind: 'message'; source: 'user' | 'agent'; text: string })
  | (RowBase & { kind: 'think'; thought: string })
  | (RowBase & { kind: 'error'; text: string; egress: EgressRefusal | null })
  | (RowBase & { kind: 'state'; state: string; reason: string })
  | (RowBase & { kind: 'note'; text: string });

/** A connection the sandbox's egress policy refused (an error event from the environment). */
export interface EgressRefusal {
  host: string;
  port: number;
  rule: string;
  /** Held open for the user's say (confirmation mode). */
  held: boolean;
}
