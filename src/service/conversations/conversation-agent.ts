import type { AgentState } from '../agent/agent-events';
import type { AgentLoop } from '../agent/agent-loop';
import type { RequestedState } from '../agent/loop-state';

/**
 * What a conversation drives, whichever agent runs it: Dockhand's own loop (`../agent/agent-loop.ts`) or a
 * coding agent over ACP (`../acp/acp-agent.ts`). Both record their work in the conversation's event log.
 */
export interface ConversationAgent {
  readonly state: AgentState;
  /** The model and budget the agent counted so far; null when it counts none (the gateway counts its calls). */
  readonly usage: AgentLoop['usage'] | null;
  /** A user message: recorded, then the agent works on it. */
  sendMessage(content: string, imageUrls?: string[]): void;
  /** A user's `change_agent_state`; `optionId` picks one of a permission request's own options. */
  changeState(requested: RequestedState, reason?: string, optionId?: string): Promise<void>;
  /** A command the user typed, run in the sandbox and recorded as the user's. */
  runUserCommand(command: string, isInput: boolean): void;
  /** Stops the agent's work: `stopped` at once, what it was doing cancelled. */
  stop(): Promise<void>;
  /** Resolves when nothing of the agent's runs any more. */
  settled(): Promise<void>;
}
