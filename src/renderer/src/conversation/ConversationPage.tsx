import { useMemo } from 'react';
import { isApiError } from '../api/api-error';
import { useConversation, useRefetchOnAgentState } from '../api/conversation-queries';
import { useSandbox } from '../api/sandbox-queries';
import { useStartBlocker } from '../api/server-queries';
import { ROUTES } from '../routing';
import { Notice } from '../ui/Notice';
import { SplitPane } from '../ui/SplitPane';
import { Composer } from './Composer';
import { ConfirmationPanel } from './ConfirmationPanel';
import { ConversationHeader } from './ConversationHeader';
import { TimelineConversation } from './EgressDenial';
import { EventTimeline } from './EventTimeline';
import { lastAgentState, pendingAction } from './timeline';
import { useConversationEvents } from './useConversationEvents';
import { workspaceRevision } from './workspace-revision';
import { WorkspacePanel } from './workspace/WorkspacePanel';

/** Where the split between the events and the workspace is remembered. */
export const SPLIT_KEY = 'dockhand.conversationSplit';

function Gone() {
  return (
    <>
      <h1>Conversation not found</h1>
      <p>
        It was deleted, or the address is wrong. <a href={ROUTES.conversations}>See all conversations</a>.
      </p>
    </>
  );
}

/**
 * One conversation: its state and controls, everything that happened in it and the composer, and beside
 * them its workspace (changes, files, web hosts).
 */
export function ConversationPage({ conversationId }: { conversationId: string }) {
  const conversation = useConversation(conversationId);
  const { events, mode, ended, startingNote } = useConversationEvents(conversationId);
  const revision = useMemo(() => workspaceRevision(events), [events]);
  const sandbox = useSandbox(conversation.data?.sandbox_id ?? null);
  const startBlocker = useStartBlocker();
  const liveAgentState = lastAgentState(events);
  useRefetchOnAgentState(conversationId, liveAgentState);

  if (ended === 'deleted' || isApiError(conversation.error, 404)) return <Gone />;
  if (conversation.isPending) return <p className="muted">Loading the conversation…</p>;
  if (conversation.isError) {
    return (
      <Notice tone="error" title="The conversation could not be loaded">
        <p>{conversation.error.message}</p>
      </Notice>
    );
  }
  const info = conversation.data;
  // Events arrive live; the conversation record catches up a moment later.
  const agentState = liveAgentState ?? info.agent_state;
  const pending =
    info.status !== 'STOPPED' && agentState === 'awaiting_user_confirmation' ? pendingAction(events) : null;
  const state = info.dockhand_state;
  // A stopped conversation that cannot start says so where the user would write.
  const blocked =
    state.blocked && info.status === 'STOPPED' && startBlocker
      ? `The conversation is stopped and cannot start now. ${startBlocker}`
      : state.blocked;

  return (
    <div className="conversation">
      <ConversationHeader
        conversation={info}
        state={state}
        agentState={agentState}
        sandbox={sandbox.data}
        startingNote={info.status === 'STARTING' ? startingNote : null}
      />
      {ended === 'key_rotated' && (
        <Notice tone="warning" title="The session key changed">
          <p>Live updates stopped. Reload the page to continue.</p>
        </Notice>
      )}
      <SplitPane
        storageKey={SPLIT_KEY}
        defaultFraction={0.58}
        min={0.3}
        max={0.8}
        label="Resize the conversation and the workspace"
        first={
          <div className="conversation-main">
            <TimelineConversation.Provider value={conversationId}>
              <EventTimeline events={events} mode={mode} />
            </TimelineConversation.Provider>
            <Composer conversation={info} blocked={blocked} />
          </div>
        }
        second={
          <WorkspacePanel
            conversationId={conversationId}
            revision={revision}
            open={info.status === 'RUNNING' && sandbox.data?.status === 'RUNNING'}
            events={events}
            confirmation={
              pending && (
                <ConfirmationPanel key={pending.id} conversationId={conversationId} action={pending} />
              )
            }
          />
        }
      />
    </div>
  );
}
