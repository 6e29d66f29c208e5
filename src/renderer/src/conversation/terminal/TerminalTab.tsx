import '@xterm/xterm/css/xterm.css';
import './terminal.css';
import { type RefObject, useEffect, useRef, useState } from 'react';
import type { V0Event } from '../../../../shared/api/events';
import { useApi } from '../../api/ApiProvider';
import { useConversation } from '../../api/conversation-queries';
import { Notice } from '../../ui/Notice';
import { agentCommandText } from './agent-commands';
import { openTerminalSocket } from './terminal-socket';
import { createXtermView, type XtermView } from './xterm-view';

type View = 'shell' | 'agent';

type ShellState =
  { kind: 'connecting' } | { kind: 'open' } | { kind: 'ended'; text: string; tone: 'info' | 'error' };

/** An xterm filling `element`'s box, refitted whenever that box changes size (xterm's `onResize` tells). */
function useXterm(readOnly: boolean): [RefObject<HTMLDivElement | null>, XtermView | null] {
  const element = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<XtermView | null>(null);
  useEffect(() => {
    const parent = element.current;
    if (!parent) return;
    const created = createXtermView(parent, readOnly);
    setView(created);
    const observer = new ResizeObserver(() => {
      // A hidden view has no size to fit to.
      if (parent.clientWidth > 0 && parent.clientHeight > 0) created.fit();
    });
    observer.observe(parent);
    return () => {
      observer.disconnect();
      created.dispose();
      setView(null);
    };
  }, [readOnly]);
  return [element, view];
}

/** The person's own shell in the sandbox, over the terminal websocket. */
function UserShell({ conversationId }: { conversationId: string }) {
  const api = useApi();
  const [element, view] = useXterm(false);
  const [state, setState] = useState<ShellState>({ kind: 'connecting' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!view) return;
    const { terminal } = view;
    terminal.reset();
    let ended: ShellState | null = null;
    const opened = openTerminalSocket(api, conversationId, view.fit(), (event) => {
      switch (event.kind) {
        case 'open':
          setState({ kind: 'open' });
          terminal.focus();
          break;
        case 'output':
          terminal.write(event.bytes);
          break;
        case 'exit':
          ended = { kind: 'ended', text: `The shell ended (exit code ${event.exitCode}).`, tone: 'info' };
          break;
        case 'error':
          ended = { kind: 'ended', text: event.detail, tone: 'error' };
          break;
        case 'closed':
          setState(
            ended ?? {
              kind: 'ended',
              text: event.reason || 'The terminal could not connect to the sandbox.',
              tone: 'error',
            },
          );
          break;
      }
    });
    const input = terminal.onData((data) => opened.send(data));
    const resized = terminal.onResize((size) => opened.resize(size));
    return () => {
      input.dispose();
      resized.dispose();
      opened.close();
    };
  }, [api, conversationId, view, attempt]);

  return (
    <div className="terminal-view">
      {state.kind === 'connecting' && <p className="muted terminal-status">Connecting to the sandbox…</p>}
      {state.kind === 'ended' && (
        <Notice tone={state.tone} title="Not connected">
          <p>{state.text}</p>
          <button
            type="button"
            onClick={() => {
              setState({ kind: 'connecting' });
              setAttempt((n) => n + 1);
            }}
          >
            Start a new shell
          </button>
        </Notice>
      )}
      <div ref={element} className="terminal-screen" aria-label="Your shell" data-state={state.kind} />
    </div>
  );
}

/** What the agent ran and printed, read-only, appended as events arrive. */
function AgentCommands({ events }: { events: readonly V0Event[] }) {
  const [element, view] = useXterm(true);
  const written = useRef('');
  const text = agentCommandText(events);

  useEffect(() => {
    if (!view) return;
    if (!text.startsWith(written.current)) {
      view.terminal.reset();
      written.current = '';
    }
    view.terminal.write(text.slice(written.current.length));
    written.current = text;
  }, [view, text]);

  return (
    <div className="terminal-view">
      {text === '' && <p className="muted terminal-status">The agent has not run a command yet.</p>}
      <div ref={element} className="terminal-screen" aria-label="The agent's commands" />
    </div>
  );
}

/**
 * The Terminal tab: the person's own shell in the conversation's sandbox (while it runs), or the commands the
 * agent ran with their output, read-only.
 */
export function TerminalTab({
  conversationId,
  events,
}: {
  conversationId: string;
  events: readonly V0Event[];
}) {
  const [view, setView] = useState<View>('shell');
  const conversation = useConversation(conversationId);
  const running = conversation.data?.status === 'RUNNING';

  return (
    <div className="terminal-tab">
      <div className="terminal-switch" role="radiogroup" aria-label="Terminal">
        {(
          [
            ['shell', 'Your shell'],
            ['agent', "Agent's commands"],
          ] as const
        ).map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="radio"
            aria-checked={view === key}
            className="terminal-switch-option"
            onClick={() => setView(key)}
          >
            {label}
          </button>
        ))}
      </div>
      {/* Both stay mounted: switching views keeps the shell and its screen. */}
      <div hidden={view !== 'shell'} className="terminal-pane">
        {running ? (
          <UserShell conversationId={conversationId} />
        ) : (
          <Notice tone="info" title="The sandbox is not running">
            <p>Start the conversation, or resume its sandbox, to open a shell in it.</p>
          </Notice>
        )}
      </div>
      <div hidden={view !== 'agent'} className="terminal-pane">
        <AgentCommands events={events} />
      </div>
    </div>
  );
}
