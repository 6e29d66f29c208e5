import type { ConversationInfo } from '../../../shared/api/conversations';
import type { SandboxInfo } from '../../../shared/api/sandboxes';
import type { ConversationState } from '../../../shared/conversation-state';
import { useStartBlocker } from '../api/server-queries';
import { useChangeAgentState, useStartConversation, useStopConversation } from '../api/conversation-queries';
import { StartFailure } from '../start/StartFailure';
import { Notice } from '../ui/Notice';
import { RepositoryLabel } from './RepositoryLabel';
import { SandboxControls } from './SandboxControls';
import { StatePill } from './StatePill';

/** Agent states in which pausing the agent makes sense; `paused` is the one Resume leaves. */
const PAUSABLE_STATES: ReadonlySet<string> = new Set(['running', 'rate_limited']);

const NETWORK_POLICY_LABELS: Record<ConversationInfo['network_policy'], string> = {
  open: 'open',
  balanced: 'balanced',
  model_only: 'model only',
  offline: 'offline',
};

interface ConversationHeaderProps {
  conversation: ConversationInfo;
  state: ConversationState;
  agentState: string | null;
  sandbox: SandboxInfo | undefined;
  /** While it starts: the latest word on getting its sandbox, e.g. an image build's step. */
  startingNote?: string | null;
}

/**
 * Title and the conversation's one state, with one Start or Stop, Pause/Resume of the agent and
 * Suspend/Resume of its sandbox (two different things, named differently).
 */
export function ConversationHeader({
  conversation,
  state,
  agentState,
  sandbox,
  startingNote,
}: ConversationHeaderProps) {
  const id = conversation.conversation_id;
  const start = useStartConversation(id);
  const stop = useStopConversation(id);
  const changeState = useChangeAgentState(id);
  const active = conversation.status !== 'STOPPED';
  const busy = start.isPending || stop.isPending || changeState.isPending;
  const blocker = useStartBlocker();
  const stage = state.phase === 'starting' && startingNote ? startingNote : null;

  return (
    <header className="conversation-header">
      <div className="conversation-title-row">
        <h1 title={conversation.title}>{conversation.title}</h1>
        <span role="status" className="conversation-state">
          <StatePill state={state} withStage />
          {stage && <span className="state-note">{stage}</span>}
        </span>
        <p className="conversation-context">
          <RepositoryLabel conversation={conversation} />
          <span title="What the conversation's sandbox may reach when it runs on the gated network (Settings → Sandboxes); each refusal shows in the timeline">
            Network: {NETWORK_POLICY_LABELS[conversation.network_policy]}
          </span>
          <span title="Environment variables of the sandbox's shell that hold your secrets">
            Sandbox secrets:{' '}
            {conversation.sandbox_secrets.length > 0
              ? conversation.sandbox_secrets.map((name, index) => (
                  <span key={name}>
                    {index > 0 && ', '}
                    <code>{name}</code>
                  </span>
                ))
              : 'none'}
          </span>
        </p>
        <div className="conversation-actions">
          {active && agentState === 'paused' && (
            <button
              type="button"
              className="button-secondary button-small"
              disabled={busy}
              onClick={() => changeState.mutate('running')}
            >
              Resume agent
            </button>
          )}
          {active && agentState !== null && PAUSABLE_STATES.has(agentState) && (
            <button
              type="button"
              className="button-secondary button-small"
              title="The agent finishes its current step, then waits; the sandbox keeps running"
              disabled={busy}
              onClick={() => changeState.mutate('paused')}
            >
              Pause agent
            </button>
          )}
          {active && sandbox && <SandboxControls sandbox={sandbox} />}
          {active ? (
            <button
              type="button"
              className="button-secondary button-small"
              disabled={busy}
              onClick={() => stop.mutate()}
            >
              {stop.isPending ? 'Stopping…' : 'Stop'}
            </button>
          ) : (
            <button
              type="button"
              className="button-primary button-small"
              disabled={busy || blocker !== null}
              title={blocker ?? undefined}
              onClick={() => start.mutate()}
            >
              {start.isPending ? 'Starting…' : 'Start'}
            </button>
          )}
        </div>
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
