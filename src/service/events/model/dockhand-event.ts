/**
 * Dockhand's own events: what an agent emits and what the event log keeps. Wire formats (V0 for socket.io,
 * SSE and the REST pages, V1, the agent-server's SDK events) are mapped from these at the edges, in the
 * routes that serve them. Field names are camelCase; a kind is added, never renamed.
 */

/** Who an event comes from: the agent, the person, or the service and sandbox around them. */
export type EventSource = 'agent' | 'user' | 'environment';

/** The agent's states (api-contract §14). */
export const AGENT_STATES = [
  'loading',
  'running',
  'awaiting_user_input',
  'paused',
  'stopped',
  'finished',
  'rejected',
  'error',
  'awaiting_user_confirmation',
  'user_confirmed',
  'user_rejected',
  'rate_limited',
] as const;
export type AgentState = (typeof AGENT_STATES)[number];

/** What a tool call does, in the Agent Client Protocol's classification. */
export type ToolKind =
  'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'switch_mode' | 'other';

/** Where a tool call stands, as the Agent Client Protocol reports it. */
export type ToolCallStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

/** Whether an action waited for the user, and what they said. */
export type ConfirmationState = 'confirmed' | 'rejected' | 'awaiting_confirmation';

/** A file a tool call works on. */
export interface ToolLocation {
  path: string;
  line?: number;
}

/**
 * The tool call an event belongs to: its action, its result, a refusal or an error answering it. Dockhand's
 * own calls name the model response that asked for them; an agent over ACP gives a title, a kind and a status.
 */
export interface ToolCall {
  /** The call's id (the model's tool call id, or ACP's `toolCallId`). */
  id: string;
  /** The tool's name (a Dockhand tool or an MCP tool), or an ACP call's title. */
  name: string;
  /** The arguments as the model or the agent sent them. */
  rawInput?: unknown;
  /** The id of the model response that asked for the call. */
  responseId?: string;
  /** How many calls that response asked for. */
  callsInResponse?: number;
  kind?: ToolKind;
  status?: ToolCallStatus;
  /** What the tool returned, as the agent reported it. */
  rawOutput?: unknown;
  locations?: ToolLocation[];
}

/** Token usage of a model response. */
export interface TokenUsage {
  model: string;
  promptTokens: number;
  completionTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  contextWindow: number;
  perTurnTokens: number;
  responseId: string;
}

/** What the model has cost the conversation so far, attached to the agent's actions. */
export interface LlmMetrics {
  accumulatedCost: number;
  maxBudgetPerTask: number | null;
  /** Whether the cost is known (a price, or the provider's own figure). */
  costKnown?: boolean;
  accumulatedTokenUsage: TokenUsage;
}

/** What every event has. */
export interface EventBase {
  /** The event's position in its conversation's log: from 0, gap-free. */
  id: number;
  /** When it was stored, ISO 8601 UTC. */
  timestamp: string;
  source: EventSource;
  /** The id of the event this one answers (a result's action). */
  cause?: number;
  toolCall?: ToolCall;
  /** The model's usage so far, on the events of a model response. */
  metrics?: LlmMetrics;
  /**
   * The V0 event a row of an earlier version holds, when the fields above do not give it back exactly
   * (`v0-codec.ts`): the V0 wire sends it as stored, so old conversations replay unchanged.
   */
  storedV0?: Record<string, unknown>;
}

/** What an action of a tool call has besides its own fields. */
export interface ActionFields {
  /** What the model said with the call. */
  thought: string;
  confirmation?: ConfirmationState;
  /** -1 unknown, 0 low, 1 medium, 2 high. */
  securityRisk?: number;
  /** The security analyzer's rules that fired. */
  securityRules?: string[];
}

/** A message of the person or the agent. */
export interface MessageEvent extends EventBase {
  kind: 'message';
  text: string;
  imageUrls: string[] | null;
  fileUrls: string[] | null;
  /** Whether the agent waits for the person's answer. */
  waitForResponse: boolean;
  securityRisk: number;
}

/** The agent's reasoning: the `think` tool, or a thought an agent streamed. */
export interface ThoughtEvent extends EventBase, ActionFields {
  kind: 'thought';
}

/** The `think` tool's answer. */
export interface ThoughtResultEvent extends EventBase {
  kind: 'thought_result';
  text: string;
}

/** The system prompt and tools the agent starts with. */
export interface SystemEvent extends EventBase {
  kind: 'system';
  prompt: string;
  tools: unknown[];
  /** Dockhand's version. */
  version: string;
  agentClass: string;
  /** MCP tools by the name the model sees: the server and the tool's own name. */
  mcpTools: Record<string, { server: string; tool: string }>;
}

/** Context the agent is given: the workspace (with the first message) or knowledge a message triggered. */
export interface RecallEvent extends EventBase {
  kind: 'recall';
  recallType: 'workspace_context' | 'knowledge';
  text: string;
  /** The recalled facts, camelCase: repoName, workingDir, runtimeHosts, microagentKnowledge… */
  context: Record<string, unknown>;
}

/** A shell command the agent (or the person) runs. */
export interface CommandEvent extends EventBase, ActionFields {
  kind: 'command';
  command: string;
  /** Whether `command` is input to the running process rather than a new command. */
  isInput: boolean;
  /** Whether the call set its own time limit (`timeout`). */
  blocking: boolean;
  /** Seconds the call may take, when it set them. */
  timeout?: number;
  isStatic: boolean;
  cwd: string | null;
  /** Not shown to the model (set-up commands the service runs). */
  hidden: boolean;
  /** The line shown instead of `Running command: …` (the service's own commands). */
  description?: string;
  /** The repository's own code the person is asked to allow (a setup script, a hook). */
  repositoryCode?: { id: string; kind: string; name: string; content: string };
}

/** The shell's facts after a command. */
export interface CommandMetadata {
  exitCode: number;
  pid: number;
  username: string | null;
  hostname: string | null;
  workingDir: string | null;
  pyInterpreterPath: string | null;
  prefix: string;
  suffix: string;
}

/** A command's output. */
export interface CommandResultEvent extends EventBase {
  kind: 'command_result';
  command: string;
  output: string;
  hidden: boolean;
  metadata: CommandMetadata | null;
  success: boolean;
}

/** A file the agent reads. */
export interface ReadEvent extends EventBase, ActionFields {
  kind: 'read';
  path: string;
  start: number;
  end: number;
  viewRange: number[] | null;
  /** The tool's implementation, as OpenHands names it (`oh_aci`). */
  implSource?: string;
}

export interface ReadResultEvent extends EventBase {
  kind: 'read_result';
  path: string;
  text: string;
  implSource?: string;
}

/** The editor's commands: create, replace, insert, undo (a `view` is a read). */
export type EditCommand = 'create' | 'str_replace' | 'insert' | 'undo_edit' | 'write';

/** A file the agent changes. */
export interface EditEvent extends EventBase, ActionFields {
  kind: 'edit';
  path: string;
  command: EditCommand | string;
  fileText: string | null;
  oldStr: string | null;
  newStr: string | null;
  insertLine: number | null;
  content: string;
  start: number;
  end: number;
  implSource?: string;
}

/** A change to one file: its text before (null when it did not exist) and after, and the unified diff. */
export interface FileDiff {
  path: string;
  oldText: string | null;
  newText: string;
  /** The unified diff, when the producer made one. */
  unified?: string | null;
}

export interface EditResultEvent extends EventBase {
  kind: 'edit_result';
  path: string;
  /** What the tool answered (the snippet it shows the model). */
  text: string;
  prevExist: boolean;
  oldContent: string | null;
  newContent: string | null;
  diff: string | null;
  implSource?: string;
  /** Diffs as an agent over ACP reports them (`content` of type `diff`). */
  diffs?: FileDiff[];
}

/** A web page the agent fetches. */
export interface FetchEvent extends EventBase, ActionFields {
  kind: 'fetch';
  url: string;
}

export interface FetchResultEvent extends EventBase {
  kind: 'fetch_result';
  url: string;
  text: string;
  success?: boolean;
}

/** One task of the agent's plan. */
export interface PlanTask {
  id: string;
  title: string;
  status: 'todo' | 'in_progress' | 'done';
  notes?: string;
  /** An ACP plan entry's priority. */
  priority?: 'high' | 'medium' | 'low';
}

/** The agent's task list: shown (`view`) or replaced (`plan`); an ACP `plan` update is a `plan`. */
export interface PlanEvent extends EventBase, ActionFields {
  kind: 'plan';
  command: 'view' | 'plan';
  tasks: PlanTask[];
}

export interface PlanResultEvent extends EventBase {
  kind: 'plan_result';
  command: 'view' | 'plan';
  tasks: PlanTask[];
  text: string;
}

/** A call of an MCP server's tool. */
export interface McpCallEvent extends EventBase, ActionFields {
  kind: 'mcp_call';
  /** The tool's name as the model sees it. */
  name: string;
  arguments: Record<string, unknown>;
}

export interface McpResultEvent extends EventBase {
  kind: 'mcp_result';
  name: string;
  arguments: Record<string, unknown>;
  text: string;
  /** Images the tool returned, as data URLs. */
  imageUrls?: string[];
  success: boolean;
}

/** A content block of an ACP tool call. */
export type ToolCallContent =
  | { type: 'text'; text: string }
  | { type: 'diff'; diff: FileDiff }
  | { type: 'terminal'; terminalId: string };

/**
 * A tool call of another agent (over ACP) that none of the kinds above describes (search, delete, move,
 * switch_mode, other), or an update of one: `toolCall` carries its id, title, kind, status and raw input
 * and output.
 */
export interface ToolCallEvent extends EventBase {
  kind: 'tool_call';
  toolCall: ToolCall;
  content: ToolCallContent[];
}

/** A later report on a tool call (its status, output, content); fields left out have not changed. */
export interface ToolCallUpdateEvent extends EventBase {
  kind: 'tool_call_update';
  toolCall: ToolCall;
  content?: ToolCallContent[];
}

/** An action waits for the person: the call (`toolCall`) and the answers offered. */
export interface ConfirmationRequestEvent extends EventBase {
  kind: 'confirmation_request';
  options: {
    id: string;
    name: string;
    kind: 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
  }[];
}

/** The person's answer to a confirmation request. */
export interface ConfirmationAnswerEvent extends EventBase {
  kind: 'confirmation_answer';
  answer: 'confirmed' | 'rejected';
  /** The chosen option of an ACP request. */
  optionId?: string;
  reason?: string;
}

/** The person refused an action (Dockhand's answer to the refused call, with the reason). */
export interface RejectionEvent extends EventBase {
  kind: 'user_rejected';
  text: string;
}

/** The agent's state changed. */
export interface StatusEvent extends EventBase {
  kind: 'status';
  state: AgentState;
  /** Why, when the state is an error. */
  reason: string;
}

/** A state the person (or the service for them) asked the agent for. */
export interface StatusRequestEvent extends EventBase {
  kind: 'status_request';
  state: AgentState;
  thought: string;
}

/** Something failed: a call that could not run, a tool error. */
export interface ErrorEvent extends EventBase {
  kind: 'error';
  text: string;
  errorId: string;
}

/** Token usage and cost reported on their own (an ACP `usage` update). */
export interface UsageEvent extends EventBase {
  kind: 'usage';
  usage: TokenUsage;
  accumulatedCost?: number;
}

/** The agent ended its task. */
export interface FinishEvent extends EventBase, ActionFields {
  kind: 'finish';
  message: string;
  outputs: Record<string, unknown>;
}

/** The agent refused its task. */
export interface RejectEvent extends EventBase {
  kind: 'reject';
  reason: string;
  thought: string;
}

/** The condenser forgot events (by ids, or a range) and may show a summary in their place. */
export interface CondensationEvent extends EventBase {
  kind: 'condensation';
  forgottenIds: number[] | null;
  forgottenRange: { start: number; end: number } | null;
  summary: string | null;
  /** Where the summary goes among the events left in view. */
  summaryOffset: number | null;
  /** The line shown for it. */
  text: string;
}

/** A summary in the condensed view, where the forgotten events were. */
export interface CondensationSummaryEvent extends EventBase {
  kind: 'condensation_summary';
  summary: string;
}

/** The agent repeats itself: the loop found a pattern (not shown to the model). */
export interface LoopDetectionEvent extends EventBase {
  kind: 'loop_detection';
  text: string;
  /** Which of the stuck detector's patterns matched. */
  pattern: number;
  loopStartId: number;
}

/**
 * A note for the person that is not a tool's answer (a context warning, the service's own observations):
 * `name` says which, `details` carries its facts (camelCase); `hidden` keeps it from the model.
 */
export interface NoticeEvent extends EventBase {
  kind: 'notice';
  name: string;
  text: string;
  details: Record<string, unknown>;
  hidden: boolean;
}

/**
 * A stored event in a shape the kinds above do not describe (rows written by older versions, or kinds a
 * newer one added): kept as stored, so it replays unchanged.
 */
export interface LegacyEvent extends EventBase {
  kind: 'legacy';
  /** The event as it was stored, in the V0 wire format. */
  wire: Record<string, unknown>;
}

export type DockhandEvent =
  | MessageEvent
  | ThoughtEvent
  | ThoughtResultEvent
  | SystemEvent
  | RecallEvent
  | CommandEvent
  | CommandResultEvent
  | ReadEvent
  | ReadResultEvent
  | EditEvent
  | EditResultEvent
  | FetchEvent
  | FetchResultEvent
  | PlanEvent
  | PlanResultEvent
  | McpCallEvent
  | McpResultEvent
  | ToolCallEvent
  | ToolCallUpdateEvent
  | ConfirmationRequestEvent
  | ConfirmationAnswerEvent
  | RejectionEvent
  | StatusEvent
  | StatusRequestEvent
  | ErrorEvent
  | UsageEvent
  | FinishEvent
  | RejectEvent
  | CondensationEvent
  | CondensationSummaryEvent
  | LoopDetectionEvent
  | NoticeEvent
  | LegacyEvent;

export type DockhandEventKind = DockhandEvent['kind'];

/** The event of a kind. */
export type EventOfKind<K extends DockhandEventKind> = Extract<DockhandEvent, { kind: K }>;

type WithoutStamp<E> = E extends DockhandEvent ? Omit<E, 'id' | 'timestamp'> & { timestamp?: string } : never;

/** An event before the log numbers and stamps it. */
export type NewDockhandEvent = WithoutStamp<DockhandEvent>;
