import { useEffect, useEffectEvent } from 'react';
import type { V0Event } from '../../../shared/api/events';
import { useChangeAgentState } from '../api/conversation-queries';
import { isAltShortcut } from '../keyboard';
import { DiffView } from './DiffView';
import type { RepositoryCode } from './timeline-rows';
import { REPOSITORY_CODE_WORDS, riskLevel } from './words';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function prefixed(sign: '+' | '-', value: string): string[] {
  return value === '' ? [] : value.split('\n').map((line) => `${sign}${line}`);
}

/** The change an editor call proposes, as diff lines: what it removes and what it adds. */
function proposedChange(args: Record<string, unknown>): string | null {
  const lines = [
    ...prefixed('-', text(args.old_str)),
    ...prefixed('+', text(args.new_str) || text(args.file_text)),
  ];
  return lines.length > 0 ? ['@@ proposed change @@', ...lines].join('\n') : null;
}

/** The repository's own code a start would run: setup script, git hook or MCP server. */
function repositoryCodeOf(action: V0Event): RepositoryCode | null {
  const code = action.args?.repository_code as RepositoryCode | undefined;
  return code && typeof code.name === 'string' ? code : null;
}

function ActionDetails({ action }: { action: V0Event }) {
  const args = action.args ?? {};
  const code = repositoryCodeOf(action);
  if (code) {
    return (
      <>
        <p>
          The repository’s {REPOSITORY_CODE_WORDS[code.kind]} <code>{code.name}</code> would run in the
          sandbox, with the conversation’s secrets in its environment. Confirm only if you trust it:
        </p>
        <pre className="terminal-body confirmation-command">{text(code.content)}</pre>
      </>
    );
  }
  if (action.action === 'run') {
    return (
      <>
        <p>Run this command in the sandbox:</p>
        <pre className="terminal-body confirmation-command">
          <span className="terminal-prompt" aria-hidden="true">
            ${' '}
          </span>
          {text(args.command)}
        </pre>
      </>
    );
  }
  if (action.action === 'edit') {
    const change = proposedChange(args);
    return (
      <>
        <p>
          Change the file <code>{text(args.path)}</code> ({text(args.command).replaceAll('_', ' ')}):
        </p>
        {change && <DiffView diff={change} label={`Proposed change to ${text(args.path)}`} />}
      </>
    );
  }
  return <p>{action.message}</p>;
}

/** A coding agent's own answer to its permission request (ACP `PermissionOption`). */
interface AgentOption {
  option_id: string;
  name: string;
  kind: string;
}

/**
 * The agent's options beyond the plain ones Confirm and Reject give (`allow_once`, `reject_once`): e.g. allow
 * always, reject always. Empty for Dockhand's own agent.
 */
function extraOptions(action: V0Event): AgentOption[] {
  const options = action.args?.acp_options;
  if (!Array.isArray(options)) return [];
  return (options as Partial<AgentOption>[]).filter(
    (option): option is AgentOption =>
      typeof option.option_id === 'string' &&
      typeof option.name === 'string' &&
      typeof option.kind === 'string' &&
      option.kind !== 'allow_once' &&
      option.kind !== 'reject_once',
  );
}

interface ConfirmationPanelProps {
  conversationId: string;
  action: V0Event;
}

/** The action the agent waits to run, its risk and the rules it triggered, with Confirm and Reject. */
export function ConfirmationPanel({ conversationId, action }: ConfirmationPanelProps) {
  const decide = useChangeAgentState(conversationId);
  const level = riskLevel(action.args?.security_risk);
  const rules = Array.isArray(action.args?.security_rules) ? action.args.security_rules.map(String) : [];

  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (decide.isPending) return;
    if (isAltShortcut(event, 'y')) decide.mutate('user_confirmed');
    else if (isAltShortcut(event, 'n')) decide.mutate('user_rejected');
    else return;
    event.preventDefault();
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  return (
    <section
      className={`confirmation confirmation-${level.toLowerCase()}`}
      aria-labelledby="confirmation-heading"
    >
      <h2 id="confirmation-heading">
        {repositoryCodeOf(action)
          ? 'The repository’s code asks to run'
          : 'The agent asks for your confirmation'}
      </h2>
      <ActionDetails action={action} />
      <p className="confirmation-risk">
        Risk: <span className={`badge badge-risk-${level.toLowerCase()}`}>{level}</span>
        {rules.length > 0 && (
          <>
            {' '}
            · Rules: <code>{rules.join(', ')}</code>
          </>
        )}
      </p>
      {decide.error && <p className="field-error">{decide.error.message}</p>}
      <div className="form-actions">
        <button
          type="button"
          className="button-primary"
          aria-keyshortcuts="Alt+Y"
          disabled={decide.isPending}
          onClick={() => decide.mutate('user_confirmed')}
        >
          Confirm <kbd>Alt+Y</kbd>
        </button>
        <button
          type="button"
          className="button-secondary"
          aria-keyshortcuts="Alt+N"
          disabled={decide.isPending}
          onClick={() => decide.mutate('user_rejected')}
        >
          Reject <kbd>Alt+N</kbd>
        </button>
        {extraOptions(action).map((option) => (
          <button
            key={option.option_id}
            type="button"
            className="button-secondary"
            disabled={decide.isPending}
            onClick={() =>
              decide.mutate({
                state: option.kind.startsWith('allow') ? 'user_confirmed' : 'user_rejected',
                optionId: option.option_id,
              })
            }
          >
            {option.name}
          </button>
        ))}
      </div>
    </section>
  );
}
