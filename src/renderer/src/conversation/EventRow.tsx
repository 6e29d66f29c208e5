import { memo } from 'react';
import { Markdown } from '../ui/Markdown';
import { DiffView } from './DiffView';
import { EgressDenial } from './EgressDenial';
import { formatDuration } from './when';
import type { CommandRow, EditRow, ReadRow, RepositoryCode, TimelineRow } from './timeline-rows';
import { agentStateText } from '../../../shared/conversation-state';
import { REPOSITORY_CODE_WORDS, riskLevel } from './words';

const EDIT_VERBS: Record<string, string> = {
  create: 'Created',
  str_replace: 'Edited',
  insert: 'Inserted into',
  undo_edit: 'Undid the last edit of',
};

/** A first guess of each kind's height in pixels, until the row is measured. */
const ESTIMATES: Record<TimelineRow['kind'], number> = {
  message: 36,
  command: 34,
  edit: 220,
  read: 40,
  think: 40,
  error: 60,
  state: 28,
  note: 28,
};

export function estimateRowHeight(row: TimelineRow): number {
  return ESTIMATES[row.kind];
}

export function rowKey(row: TimelineRow): string {
  return row.key;
}

/** Risk worth a glance in the log: medium and high (the confirmation panel shows every level). */
function RiskBadge({ risk }: { risk: unknown }) {
  const level = riskLevel(risk);
  if (level !== 'MEDIUM' && level !== 'HIGH') return null;
  return <span className={`badge badge-risk-${level.toLowerCase()}`}>{level} risk</span>;
}

/** Where a tool call stands: waiting, rejected, failed, or done (with its exit code for commands). */
function Outcome({ row, exitCode }: { row: CommandRow | EditRow | ReadRow; exitCode?: number | null }) {
  if (row.rejected || row.confirmation === 'rejected')
    return <span className="badge badge-warning">Rejected</span>;
  if (row.error !== null) return <span className="badge badge-error">Not run</span>;
  if (row.confirmation === 'awaiting_confirmation') {
    // The confirmation panel asks; the log only marks which action it is about.
    return (
      <span className="badge badge-warning" title="Confirm or reject it in the panel below">
        Pending
      </span>
    );
  }
  if (row.output === null) return <span className="badge badge-info">Running…</span>;
  if (exitCode === undefined || exitCode === null) return null;
  return exitCode === 0 ? (
    <span className="badge badge-ok">exit 0</span>
  ) : (
    <span className="badge badge-error">exit {exitCode}</span>
  );
}

function Thought({ text }: { text: string }) {
  return text.trim() ? (
    <div className="ev-thought">
      <Markdown text={text} />
    </div>
  ) : null;
}

function ToolError({ text }: { text: string | null }) {
  return text ? <p className="ev-tool-error">{text}</p> : null;
}

/** A repository's own code: what it is, its text, and what became of it (run, rejected, not run). */
function RepositoryCodeRun({ row, code }: { row: CommandRow; code: RepositoryCode }) {
  return (
    <div className="ev ev-tool ev-repository-code">
      <div className="terminal">
        <div className="terminal-head">
          <span>
            The repository’s {REPOSITORY_CODE_WORDS[code.kind]} <code>{code.name}</code>
          </span>
          <Outcome row={row} exitCode={row.exitCode} />
        </div>
        <pre className="terminal-body" tabIndex={0} aria-label={`The code of ${code.name}`}>
          {code.content}
        </pre>
        {row.output && <pre className="terminal-body">{row.output}</pre>}
      </div>
      <ToolError text={row.error} />
    </div>
  );
}

/** A command that ran and succeeded: one line (command, exit code, duration) that opens to its output. */
function CompactCommand({ row }: { row: CommandRow }) {
  const duration = row.endedAt ? formatDuration(row.at, row.endedAt) : null;
  return (
    <div className="ev ev-tool">
      <Thought text={row.thought} />
      <details className="terminal terminal-compact">
        <summary className="terminal-head">
          <span className="terminal-line">
            <span className="terminal-prompt" aria-hidden="true">
              ${' '}
            </span>
            <span className="terminal-command">{row.command}</span>
            {row.workingDir && <span className="terminal-cwd"> in {row.workingDir}</span>}
          </span>
          <RiskBadge risk={row.risk} />
          <span className="terminal-outcome">exit 0{duration && ` · ${duration}`}</span>
        </summary>
        <CommandOutput row={row} />
      </details>
    </div>
  );
}

/** A command as typed at a prompt, then its output. */
function CommandOutput({ row }: { row: CommandRow }) {
  return (
    <pre className="terminal-body" tabIndex={0} aria-label={`Command ${row.command} and its output`}>
      <span className="terminal-command">
        <span className="terminal-prompt" aria-hidden="true">
          ${' '}
        </span>
        {row.command}
      </span>
      {row.output ? `\n${row.output}` : ''}
    </pre>
  );
}

function succeeded(row: CommandRow): boolean {
  return (
    row.output !== null &&
    row.exitCode === 0 &&
    row.error === null &&
    !row.rejected &&
    row.confirmation !== 'rejected'
  );
}

function Command({ row }: { row: CommandRow }) {
  if (row.code) return <RepositoryCodeRun row={row} code={row.code} />;
  if (succeeded(row)) return <CompactCommand row={row} />;
  return (
    <div className="ev ev-tool">
      <Thought text={row.thought} />
      <div className="terminal">
        <div className="terminal-head">
          <span>
            {row.source === 'user' ? 'Your command' : 'Command'}
            {row.workingDir && <span className="terminal-cwd"> in {row.workingDir}</span>}
          </span>
          <RiskBadge risk={row.risk} />
          <Outcome row={row} exitCode={row.exitCode} />
        </div>
        <CommandOutput row={row} />
      </div>
      <ToolError text={row.error} />
    </div>
  );
}

function Edit({ row }: { row: EditRow }) {
  const verb = EDIT_VERBS[row.operation] ?? 'Edited';
  const done = row.output !== null;
  return (
    <div className="ev ev-tool">
      <Thought text={row.thought} />
      <div className="file-change">
        <div className="file-change-head">
          <span>
            {done || row.operation === '' ? verb : 'Editing'} <code>{row.path}</code>
          </span>
          <RiskBadge risk={row.risk} />
          <Outcome row={row} />
        </div>
        {row.diff ? (
          <DiffView diff={row.diff} label={`Changes to ${row.path}`} />
        ) : (
          row.output && <pre className="file-change-text">{row.output}</pre>
        )}
      </div>
      <ToolError text={row.error} />
    </div>
  );
}

function Read({ row }: { row: ReadRow }) {
  return (
    <div className="ev ev-tool">
      <Thought text={row.thought} />
      <details className="ev-details">
        <summary>
          Read <code>{row.path}</code> <Outcome row={row} />
        </summary>
        {row.output && <pre className="file-change-text">{row.output}</pre>}
      </details>
      <ToolError text={row.error} />
    </div>
  );
}

/**
 * One row of the conversation: a message, a tool call with its result, a thought, an error or a separator.
 * Rows keep their objects until they change, so scrolling and new events re-render only what changed.
 */
export const EventRow = memo(function EventRow({ row }: { row: TimelineRow }) {
  switch (row.kind) {
    case 'message':
      return (
        <div className={`ev ev-message ev-message-${row.source}`}>
          <p className="ev-author visually-hidden">{row.source === 'user' ? 'You' : 'Agent'}</p>
          <Markdown text={row.text} />
        </div>
      );
    case 'command':
      return <Command row={row} />;
    case 'edit':
      return <Edit row={row} />;
    case 'read':
      return <Read row={row} />;
    case 'think':
      return (
        <div className="ev">
          <details className="ev-details ev-think">
            <summary>Thought</summary>
            <Markdown text={row.thought} />
          </details>
        </div>
      );
    case 'error':
      if (row.egress) return <EgressDenial refusal={row.egress} />;
      return (
        <div className="ev">
          <div className="ev-error">
            <p className="ev-error-title">Error</p>
            <pre>{row.text}</pre>
          </div>
        </div>
      );
    case 'state':
      return (
        <div className="ev ev-separator" role="separator" aria-label={`Agent ${agentStateText(row.state)}`}>
          <span>
            Agent: {agentStateText(row.state)}
            {row.reason ? ` — ${row.reason}` : ''}
          </span>
        </div>
      );
    case 'note':
      return (
        <div className="ev ev-note">
          <p>{row.text}</p>
        </div>
      );
  }
});
