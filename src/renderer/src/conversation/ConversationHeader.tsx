import type { ConversationInfo } from '../../../shared/api/conversations';
import { useChangeAgentState, useStartConversation, useStopConversation } from '../api/conversation-queries';
import { StartFailure } from '../start/StartFailure';
import { Notice } from '../ui/Notice';
import { SandboxControls } from './SandboxControls';
import { StatusBadge } from './StatusBadge';
import { agentStateText, PAUSABLE_STATES, runtimeStatusText, runtimeStatusTone } from './words';

interface ConversationHeaderProps {
  conversation: ConversationInfo;
  agentState: string | null;
  /** While it starts: the latest word on getting its sandbox, e.g. an image build's step. */
  startingNote?: string | null;
}

/** Title, status, sandbox and agent state, with Start/Stop, Pause/Resume of the agent and of its sandbox. */
export function ConversationHeader({ conversation, agentState, startingNote }: ConversationHeaderProps) {
  const id = conversation.conversation_id;
  const start = useStartConversation(id);
  const stop = useStopConversation(id);
  const changeState = useChangeAgentState(id);
  const active = conversation.status !== 'STOPPED';
  const runtime = runtimeStatusText(conversation.runtime_status);
  const agent = active ? agentStateText(agentState) : null;
  const busy = start.isPending || stop.isPending || changeState.isPending;

  return (
    <header className="conversation-header">
      <div className="conversation-title-row">
        <h1>{conversation.title}</h1>
        <div className="conversation-actions">
          {active && agentState === 'paused' && (
            <button
              type="button"
              className="button-secondary"
              disabled={busy}
              onClick={() => changeState.mutate('running')}
            >
              Resume agent
            </button>
          )}
          {active && agentState !== null && PAUSABLE_STATES.has(agentState) && (
            <button
              type="button"
              className="button-secondary"
              disabled={busy}
              onClick={() => changeState.mutate('paused')}
            >
              Pause agent
            </button>
          )}
          {active ? (
            <button type="button" className="button-secondary" disabled={busy} onClick={() => stop.mutate()}>
              {stop.isPending ? 'Stopping…' : 'Stop'}
            </button>
          ) : (
            <button type="button" className="button-primary" disabled={busy} onClick={() => start.mutate()}>
              {start.isPending ? 'Starting…' : 'Start'}
            </button>
          )}
        </div>
      </div>
      <div className="conversation-status-row">
        <dl className="conversation-facts">
          <div>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={conversation.status} />
            </dd>
          </div>
          {runtime && (
            <div>
              <dt>Sandbox</dt>
              <dd className={`fact-${runtimeStatusTone(conversation.runtime_status)}`}>
                {runtime}
                {startingNote && <span role="status">: {startingNote}</span>}
              </dd>
            </div>
          )}
          {agent && (
            <div>
              <dt>Agent</dt>
              <dd>{agent}</dd>
            </div>
          )}
          <div>
            <dt>Secrets in the sandbox</dt>
            <dd title="Environment variables of the sandbox's shell that hold your secrets">
              {conversation.sandbox_secrets.length > 0
                ? conversation.sandbox_secrets.map((name, index) => (
                    <span key={name}>
                      {index > 0 && ', '}
                      <code>{name}</code>
                    </span>
                  ))
                : 'None'}
            </dd>
          </div>
        </dl>
        {conversation.sandbox_id && <SandboxControls sandboxId={conversation.sandbox_id} />}
      </div>
      {start.error && <StartFailure error={start.error} />}
      {(stop.error ?? changeState.error) && (
        <Notice tone="error" live>
          <p>{(stop.error ?? changeState.error)?.message}</p>
        </Notice>
      )}
    </header>
  );
}
