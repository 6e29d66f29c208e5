import {
  client,
  PROTOCOL_VERSION,
  type ClientConnection,
  type ContentBlock,
  type InitializeResponse,
  type McpServer,
  type SessionModeState,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { NewEvent, V0Event } from '../../shared/api/events';
import { agentStateChanged, errorObservation, userMessage, type AgentState } from '../agent/agent-events';
import { runUserCommand, STOPPED_NOT_EXECUTED, type StatusUpdate } from '../agent/agent-loop';
import type { RequestedState } from '../agent/loop-state';
import type { ToolContext } from '../agent/tools/tool';
import { toNewV0 } from '../events/model/v0-codec';
import { AcpEvents } from './acp-events';
import { AcpPermissions, CANCELLED } from './acp-permissions';
import { agentStream, type AgentStream } from './acp-stream';

/** What an agent over ACP needs from the conversation that runs it. */
export interface AcpAgentDeps {
  /** The agent's name for messages (`Claude Code`). */
  label: string;
  version: string;
  /** The session's working directory in the sandbox. */
  cwd: string;
  /** Starts the agent's process in the sandbox, speaking ACP on its stdio. */
  launch(): Promise<Transport>;
  mcpServers: McpServer[];
  /** The session mode the agent is put in when it has it (`agent-launch.ts`, `sessionModeOf`). */
  sessionMode: string | null;
  /** Off: Dockhand answers every permission request `allow_once` itself, and records that it did. */
  confirmationMode: boolean;
  /** Sent before the first message of a new session (the conversation's instructions). */
  instructions: string | null;
  /** Appends to the conversation's event log (masked there). */
  append(event: NewEvent): V0Event;
  onStatus(update: StatusUpdate): void;
  /** The conversation's shell, for the user's own commands. */
  shell: ToolContext['shell'];
  /** The ACP session of an earlier start (null: none), and where a new one is kept. */
  session: { saved: string | null; save(sessionId: string): void };
  /** How long the process may take to answer `initialize` and open its session. */
  startTimeoutMs: number;
}

interface Connected {
  connection: ClientConnection;
  stream: AgentStream;
  sessionId: string;
  init: InitializeResponse;
}

const CONTEXT_LOST =
  'The agent could not load its earlier session, so it starts a new one: it does not remember what came before.';

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A coding agent run in the conversation's sandbox and driven over the Agent Client Protocol: Dockhand is
 * the client. Its process starts with the first message (and again after it ended); `initialize` offers no
 * file system and no terminal, so the agent reads, writes and runs commands in the sandbox itself. A user
 * message is a `session/prompt`; Stop is `session/cancel`, with every pending permission request answered
 * `cancelled`; a permission request waits for the user's confirm or reject (`awaiting_user_confirmation`).
 * A process that ends, hangs at start or writes what is not JSON-RPC ends the turn with an `error` event;
 * the next message starts it again, on the same session where the agent can load it.
 */
export class AcpAgent {
  private current: AgentState = 'loading';
  private readonly events: AcpEvents;
  private connected: Promise<Connected> | null = null;
  /** The connection whose end is expected (closed by Dockhand), so it is not reported as a crash. */
  private closing: ClientConnection | null = null;
  private live: Connected | null = null;
  private readonly permissions: AcpPermissions;
  private work: Promise<void> = Promise.resolve();
  private busy = 0;
  /** Updates of a session being loaded replay its history, recorded already: they are dropped. */
  private loading = false;
  private instructed = false;
  /** The session the next start loads: the earlier start's, then each new one's. */
  private session: string | null;

  constructor(private readonly deps: AcpAgentDeps) {
    this.events = new AcpEvents((event) => deps.append(event));
    this.permissions = new AcpPermissions(this.events, deps.confirmationMode, {
      get: () => this.current,
      set: (state) => this.setState(state),
    });
    this.session = deps.session.saved;
  }

  get state(): AgentState {
    return this.current;
  }

  /** The gateway counts this agent's model calls; the agent itself counts none. */
  get usage(): null {
    return null;
  }

  /** Step 11: the first message starts the agent; without one it waits for the user. */
  begin(initial: { content: string; imageUrls?: string[] } | null): void {
    this.setState('loading');
    if (initial) this.sendMessage(initial.content, initial.imageUrls);
    else this.setState('awaiting_user_input');
  }

  sendMessage(content: string, imageUrls: string[] = []): void {
    this.permissions.reject(''); // a request still waiting is rejected by the new message
    this.deps.append(toNewV0(userMessage(content, imageUrls)));
    this.setState('running');
    this.chain(() => this.prompt(content, imageUrls));
  }

  async changeState(requested: RequestedState, reason = '', optionId?: string): Promise<void> {
    switch (requested) {
      case 'user_confirmed':
        return this.permissions.confirm(optionId);
      case 'user_rejected':
        return this.permissions.reject(reason, optionId);
      case 'stopped':
        return this.stop();
      case 'paused':
        // ACP has no pause: the turn is cancelled, and the next message goes on from there.
        await this.cancelTurn();
        this.setState('paused');
        return;
      case 'running':
        if (this.current === 'paused') this.setState('awaiting_user_input');
        return;
    }
  }

  runUserCommand(command: string, isInput: boolean): void {
    this.chain(
      () =>
        runUserCommand(
          (event) => this.deps.append(toNewV0(event)),
          { shell: this.deps.shell },
          command,
          isInput,
        ),
      false,
    );
  }

  /** Stop: `stopped` at once, the turn cancelled and every pending permission request answered `cancelled`. */
  async stop(): Promise<void> {
    this.setState('stopped');
    await this.cancelTurn();
  }

  async settled(): Promise<void> {
    for (;;) {
      const work = this.work;
      await work;
      if (work === this.work) return;
    }
  }

  /** Ends the agent's process (the conversation stops or its sandbox pauses). */
  async close(): Promise<void> {
    if (this.current !== 'stopped') await this.stop();
    const connected = this.live;
    this.live = null;
    this.connected = null;
    if (connected) await this.disconnect(connected);
  }

  // ---- the turn ----

  private chain(work: () => Promise<void>, turn = true): void {
    this.busy += turn ? 1 : 0;
    this.work = this.work
      .then(work)
      .catch((error: unknown) => this.fail(errorText(error)))
      .finally(() => {
        this.busy -= turn ? 1 : 0;
      });
  }

  private async prompt(content: string, imageUrls: string[]): Promise<void> {
    if (this.halted()) return;
    const connected = await this.connect();
    if (!connected) return;
    const prompt: ContentBlock[] = [];
    if (!this.instructed && this.deps.instructions)
      prompt.push({ type: 'text', text: this.deps.instructions });
    this.instructed = true;
    prompt.push({ type: 'text', text: content });
    if (connected.init.agentCapabilities?.promptCapabilities?.image) prompt.push(...imageBlocks(imageUrls));
    let stopReason: string;
    try {
      ({ stopReason } = await connected.connection.agent.request('session/prompt', {
        sessionId: connected.sessionId,
        prompt,
      }));
    } catch (error) {
      if (this.live !== connected) return; // the process ended: reported as it ended
      throw error;
    }
    this.events.flush();
    if (stopReason === 'cancelled' || this.halted()) {
      this.events.endOpenCalls(STOPPED_NOT_EXECUTED);
      return;
    }
    this.events.endOpenCalls(`${this.deps.label} ended its turn without finishing this call.`);
    if (stopReason !== 'end_turn') {
      this.deps.onStatus({
        type: 'info',
        id: 'STATUS$ACP_STOP_REASON',
        message: `${this.deps.label} ended its turn: ${stopReason.replaceAll('_', ' ')}.`,
      });
    }
    if (this.busy <= 1) this.setState('awaiting_user_input');
  }

  /** The running agent, started (and its session opened) when there is none. Null when it could not start. */
  private async connect(): Promise<Connected | null> {
    this.connected ??= this.open();
    try {
      const connected = await this.connected;
      this.live = connected;
      return connected;
    } catch (error) {
      this.connected = null;
      this.fail(errorText(error));
      return null;
    }
  }

  private async open(): Promise<Connected> {
    const { deps } = this;
    const transport = await deps.launch();
    let connection: ClientConnection | null = null;
    const stream = await agentStream(transport, (error) => {
      if (connection && this.closing !== connection) this.ended(connection, error);
    });
    const app = client()
      .onRequest('session/request_permission', (context) =>
        this.halted() ? Promise.resolve(CANCELLED) : this.permissions.request(context.params, context.signal),
      )
      .onNotification('session/update', (context) => this.updated(context.params));
    connection = app.connect(stream.stream);
    const opened = connection;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${deps.label} did not start within ${seconds(deps.startTimeoutMs)}.`)),
        deps.startTimeoutMs,
      );
    });
    try {
      return await Promise.race([this.handshake(opened, stream), timeout]);
    } catch (error) {
      const detail = stream.stderr();
      this.closing = opened;
      opened.close();
      await stream.close();
      throw new Error(`${errorText(error)}${detail ? `\n${detail}` : ''}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  /** `initialize` (no fs, no terminal), then the session: the earlier one loaded or resumed, else a new one. */
  private async handshake(connection: ClientConnection, stream: AgentStream): Promise<Connected> {
    const { deps } = this;
    const agent = connection.agent;
    const init = await agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: 'dockhand', title: 'Dockhand', version: deps.version },
    });
    const saved = this.session;
    const capabilities = init.agentCapabilities ?? {};
    const where = { cwd: deps.cwd, mcpServers: deps.mcpServers };
    let lost: string | null = saved ? CONTEXT_LOST : null;
    if (saved && (capabilities.loadSession || capabilities.sessionCapabilities?.resume)) {
      this.loading = true;
      try {
        const opened = capabilities.sessionCapabilities?.resume
          ? await agent.request('session/resume', { sessionId: saved, ...where })
          : await agent.request('session/load', { sessionId: saved, ...where });
        await setMode(connection, saved, opened.modes, deps.sessionMode);
        this.instructed = true;
        return { connection, stream, sessionId: saved, init };
      } catch (error) {
        lost = `${CONTEXT_LOST} (${errorText(error)})`;
      } finally {
        this.loading = false;
      }
    }
    const { sessionId, modes } = await agent.request('session/new', { ...where });
    await setMode(connection, sessionId, modes, deps.sessionMode);
    this.session = sessionId;
    deps.session.save(sessionId);
    if (lost) this.note(lost);
    return { connection, stream, sessionId, init };
  }

  private updated(notification: SessionNotification): void {
    if (!this.loading) this.events.update(notification.update);
  }

  // ---- ending ----

  /** `session/cancel` for the turn in flight, every pending permission request answered `cancelled`. */
  private async cancelTurn(): Promise<void> {
    this.permissions.cancelAll();
    const live = this.live;
    if (live && this.busy > 0) {
      await live.connection.agent
        .notify('session/cancel', { sessionId: live.sessionId })
        .catch(() => undefined);
    }
  }

  /** The process ended, or spoke what is not ACP, while Dockhand did not close it. */
  private ended(connection: ClientConnection, error: Error): void {
    const live = this.live;
    if (live?.connection !== connection) return;
    this.live = null;
    this.connected = null;
    this.permissions.cancelAll();
    const detail = live.stream.stderr();
    this.closing = connection;
    connection.close(error);
    void live.stream.close();
    if (this.current === 'stopped') return;
    this.fail(`${this.deps.label}: ${error.message}${detail ? `\n${detail}` : ''}`);
  }

  private async disconnect(connected: Connected): Promise<void> {
    this.closing = connected.connection;
    connected.connection.close();
    await connected.stream.close();
  }

  /** Ends the turn with an error event; the conversation stays usable (the next message starts again). */
  private fail(message: string): void {
    this.events.endOpenCalls(STOPPED_NOT_EXECUTED);
    this.deps.append(toNewV0(errorObservation(message)));
    this.deps.onStatus({ type: 'error', id: 'STATUS$ERROR', message });
    this.setState('error', message);
  }

  private note(message: string): void {
    this.deps.append(
      toNewV0({ kind: 'error', source: 'environment', text: message, errorId: 'ACP_CONTEXT_LOST' }),
    );
  }

  /** Stopped or paused: nothing more of the turn runs. */
  private halted(): boolean {
    return this.current === 'stopped' || this.current === 'paused';
  }

  private setState(state: AgentState, reason = ''): void {
    if (state === this.current && state !== 'loading') return;
    this.current = state;
    this.deps.append(toNewV0(agentStateChanged(state, reason)));
  }
}

/** Puts the session in `wanted` when the agent offers that mode and is in another. */
async function setMode(
  connection: ClientConnection,
  sessionId: string,
  modes: SessionModeState | null | undefined,
  wanted: string | null,
): Promise<void> {
  if (!wanted || !modes || modes.currentModeId === wanted) return;
  if (!modes.availableModes.some((mode) => mode.id === wanted)) return;
  await connection.agent.request('session/set_mode', { sessionId, modeId: wanted });
}

/** Data-URL images as ACP image blocks (an http URL the agent cannot be handed without fetching it). */
function imageBlocks(urls: string[]): ContentBlock[] {
  return urls.flatMap((url) => {
    const match = /^data:(image\/[a-z+.-]+);base64,(.*)$/s.exec(url);
    return match ? [{ type: 'image' as const, mimeType: match[1] as string, data: match[2] as string }] : [];
  });
}
