import type { V1_EVENT_KINDS } from '../../../shared/api/v1-events';
import type { DockhandEvent } from '../../events/model/dockhand-event';
import { v0Event } from '../v0/v0-events';
import type { V0Event } from '../../../shared/api/events';

export type V1EventKind = (typeof V1_EVENT_KINDS)[number];

export interface V1Event {
  id: string;
  kind: V1EventKind;
  timestamp: string;
  source: string;
  conversation_id: string;
  v0: V0Event;
}

/**
 * The V1 kind of an event (api-contract §13). V1 wraps the V0 event, so the kind is read from that form,
 * which every stored event has (old rows the model keeps as legacy events too).
 */
function kindOf(v0: V0Event): V1EventKind {
  if (v0.action) {
    if (v0.action === 'message') return 'MessageEvent';
    if (v0.action === 'system') return 'SystemPromptEvent';
    if (v0.action === 'change_agent_state' && v0.args?.agent_state === 'paused') return 'PauseEvent';
    return v0.action === 'condensation' ? 'Condensation' : 'ActionEvent';
  }
  switch (v0.observation) {
    case 'agent_state_changed':
      return 'ConversationStateUpdateEvent';
    case 'error':
      return 'AgentErrorEvent';
    case 'user_rejected':
      return 'UserRejectObservation';
    case 'condense':
      return 'CondensationSummaryEvent';
    default:
      return 'ObservationEvent';
  }
}

/** An event in the V1 envelope: `<conversation id>:<event id>`, its kind, and the V0 event. */
export function v1Event(conversationId: string, event: DockhandEvent): V1Event {
  const v0 = v0Event(event);
  return {
    id: `${conversationId}:${event.id}`,
    kind: kindOf(v0),
    timestamp: event.timestamp,
    source: event.source,
    conversation_id: conversationId,
    v0,
  };
}
