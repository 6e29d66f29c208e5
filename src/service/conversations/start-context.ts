import type { NewEvent, V0Event } from '../../shared/api/events';
import type { StartStageName } from '../../shared/api/start-stage';
import type { StatusUpdate } from '../agent/agent-loop';
import type { SavedAgentState } from '../agent/agent-state-store';
import type { ServiceContext } from '../context';
import type { EventLog } from '../events/event-log';
import type { ConversationRecord } from './conversation-store';
import type { RepositoryCode } from './repository-code';

/** What every start step of one conversation may use. */
export interface StartContext {
  ctx: ServiceContext;
  events: EventLog;
  record: ConversationRecord;
  /** Aborted when the conversation stops. */
  signal: AbortSignal;
  /** The agent's state before the service restarted (null for a conversation that never ran). */
  saved: SavedAgentState | null;
  /** A note during a stage (a clone under way, a warning), shown with the stage's status. */
  note(stage: StartStageName, message: string): void;
  /** A status of the agent itself (`../agent`). */
  status(update: StatusUpdate): void;
  /** The record changed (sandbox, branch); persisted by the owner. */
  update(changes: Partial<ConversationRecord>): void;
  /** The user's say over repository code: the id of the action it runs under, or null when refused. */
  approve(code: RepositoryCode): Promise<number | null>;
  appendEvent(event: NewEvent): V0Event;
}
