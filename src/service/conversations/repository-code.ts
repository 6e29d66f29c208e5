import { randomUUID } from 'node:crypto';
import type { NewEvent, V0Event } from '../../shared/api/events';
import { agentStateChanged, type AgentState } from '../agent/agent-events';
import { toNewV0 } from '../events/model/v0-codec';
import { REJECTED_TEXT } from '../agent/agent-loop';
import { needsConfirmation, type ConfirmationSettings } from '../agent/confirmation-policy';
import { Risk } from '../agent/security/rules-analyzer';
import { shellQuote } from '../sandbox/shell/shell-input';

/** Code a repository brings that Dockhand would run for it: its setup script, its hook, its microagents' MCP servers. */
export interface RepositoryCode {
  kind: 'setup_script' | 'git_hook' | 'mcp_server';
  /** The file (`.openhands/setup.sh`) or the MCP server's name. */
  name: string;
  /** What runs: the script's text, or the server's command line. */
  content: string;
  /** The command Dockhand runs for it, shown as the action's command. */
  command: string;
}

export const PROCESS_SANDBOX_NOTE =
  'Not run: on the process sandbox a repository’s code never runs on its own, because nothing isolates it from this computer. Run it yourself if you trust it.';

const KIND_WORDS: Record<RepositoryCode['kind'], string> = {
  setup_script: 'setup script',
  git_hook: 'git hook',
  mcp_server: 'MCP server',
};

export interface RepositoryConsentDeps {
  record(event: NewEvent): V0Event;
  settings: ConfirmationSettings;
  /** Whether the sandbox isolates the code from this computer; without it (the process sandbox) the code is shown and skipped, never run. */
  isolated: boolean;
  /** Stopping the conversation ends a wait for the user (as a refusal). */
  signal: AbortSignal;
  /** Tells the user what happened to code that does not run. */
  report(message: string): void;
}

type Decision = { confirmed: boolean; reason: string };

/**
 * The user's say over repository code during a conversation's start. Each piece is recorded as an action the
 * UI shows (hidden from the model); with confirmation mode on it waits for the user exactly as a HIGH-risk
 * command does (`awaiting_user_confirmation`, then `user_confirmed`/`user_rejected` re-emitted with a new id);
 * on the process sandbox it is recorded as not run, with a note.
 */
export class RepositoryConsent {
  private waiting: ((decision: Decision) => void) | null = null;
  /** Questions come one at a time, in the order they were asked. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: RepositoryConsentDeps) {}

  /** Whether a piece of repository code waits for the user's decision. */
  get pending(): boolean {
    return this.waiting !== null;
  }

  /** The user's answer to the pending question (`change_agent_state`). */
  decide(state: 'user_confirmed' | 'user_rejected', reason = ''): void {
    const answer = this.waiting;
    this.waiting = null;
    answer?.({ confirmed: state === 'user_confirmed', reason });
  }

  /** Shows `code` and returns the id of the action it runs under, or null when it must not run. */
  approve(piece: RepositoryCode): Promise<number | null> {
    const answer = this.queue.then(() => this.ask(piece));
    this.queue = answer.catch(() => undefined);
    return answer;
  }

  private async ask(piece: RepositoryCode): Promise<number | null> {
    // One id for every copy of this question, so a client pairs the request with its answer.
    const code = { ...piece, id: randomUUID() };
    if (this.deps.signal.aborted) return null;
    if (!this.deps.isolated) {
      const action = this.action(code, 'rejected');
      this.deps.record(hiddenObservation('error', PROCESS_SANDBOX_NOTE, action.id));
      this.deps.report(`${code.name} (${KIND_WORDS[code.kind]}) was not run: ${PROCESS_SANDBOX_NOTE}`);
      return null;
    }
    if (!needsConfirmation(this.deps.settings, Risk.HIGH, false)) return this.action(code, 'confirmed').id;
    this.action(code, 'awaiting_confirmation');
    this.state('awaiting_user_confirmation');
    const decision = await this.decision();
    if (this.deps.signal.aborted) return null;
    if (decision.confirmed) {
      this.state('user_confirmed');
      const id = this.action(code, 'confirmed').id;
      this.state('loading');
      return id;
    }
    this.state('user_rejected');
    const rejected = this.action(code, 'rejected');
    const text = decision.reason ? `${REJECTED_TEXT}\nReason: ${decision.reason}` : REJECTED_TEXT;
    this.deps.record(hiddenObservation('user_rejected', text, rejected.id));
    this.deps.report(`${code.name} (${KIND_WORDS[code.kind]}) was not run: you rejected it.`);
    this.state('loading');
    return null;
  }

  private decision(): Promise<Decision> {
    return new Promise((resolve) => {
      const onAbort = () => this.decide('user_rejected');
      this.deps.signal.addEventListener('abort', onAbort, { once: true });
      this.waiting = (decision) => {
        this.deps.signal.removeEventListener('abort', onAbort);
        resolve(decision);
      };
      if (this.deps.signal.aborted) onAbort();
    });
  }

  private state(state: AgentState): void {
    this.deps.record(toNewV0(agentStateChanged(state)));
  }

  private action(code: RepositoryCode & { id: string }, confirmation: string): V0Event {
    return this.deps.record({
      source: 'environment',
      message: `The repository's ${KIND_WORDS[code.kind]} ${code.name}`,
      action: 'run',
      args: {
        command: code.command,
        is_input: false,
        thought: '',
        blocking: true,
        is_static: false,
        cwd: null,
        // Not for the model: the user decides about it, and the agent is told the outcome where it matters.
        hidden: true,
        confirmation_state: confirmation,
        security_risk: Risk.HIGH,
        repository_code: { id: code.id, kind: code.kind, name: code.name, content: code.content },
      },
    });
  }
}

/** Words as a shell command line a person reads: only words that need it are quoted. */
export function commandLineOf(words: string[]): string {
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : shellQuote(word))).join(' ');
}

/** An observation answering a repository-code action, kept from the model like the action. */
export function hiddenObservation(observation: string, content: string, cause: number): NewEvent {
  return { source: 'environment', message: content, observation, content, extras: { hidden: true }, cause };
}
