import { useState, type FormEvent } from 'react';
import { MASKED_API_KEY } from '../../../shared/api/mcp';
import { useSaveSettings, type StoredSettings } from '../api/settings-queries';
import { Field, InputField } from '../ui/Field';
import { formErrors } from '../ui/form-errors';
import { FormProblems, SubmitActions } from '../ui/FormFooter';
import {
  configOf,
  emptyRow,
  envProblem,
  fieldPath,
  rowsOf,
  rowSummary,
  type McpKind,
  type McpRow,
} from './mcp-draft';

const KINDS: { kind: McpKind; title: string; hint: string }[] = [
  {
    kind: 'shttp',
    title: 'Streamable HTTP',
    hint: 'A server at an http(s) URL speaking the streamable HTTP transport.',
  },
  {
    kind: 'sse',
    title: 'SSE',
    hint: 'A server at an http(s) URL speaking the older Server-Sent Events transport.',
  },
  {
    kind: 'stdio',
    title: 'Command (stdio)',
    hint: 'A program started in each sandbox, over its standard input and output.',
  },
];

/** A kind with more servers than this (and one) shows this many until asked for the rest. */
const FOLDED_LIST = 3;

const PATTERN_HINTS = (rows: McpRow[]) =>
  Object.fromEntries(
    rows
      .filter((row) => row.kind === 'stdio')
      .flatMap((row) => [
        [fieldPath(rows, row, 'name'), 'Use letters, digits, - and _ only.'],
        [fieldPath(rows, row, 'command'), 'One word without spaces; put the arguments in Arguments.'],
      ]),
  );

interface RowProps {
  row: McpRow;
  number: number;
  /** A row just added starts open; a saved one is a line of its own until edited. */
  startOpen: boolean;
  /** Whether a field of the row has a problem: the row then opens, and stays open while it is fixed. */
  problem: boolean;
  errors: Record<string, string>;
  path: (field: string) => string;
  onChange: (change: Partial<McpRow>) => void;
  onRemove: () => void;
}

function ServerRow({ row, number, startOpen, problem, errors, path, onChange, onRemove }: RowProps) {
  const [editing, setEditing] = useState(startOpen);
  const id = (field: string) => `mcp-${row.kind}-${row.id}-${field}`;
  const envError = row.kind === 'stdio' ? (envProblem(row.env) ?? errors[path('env')]) : undefined;
  const name = `${KINDS.find((k) => k.kind === row.kind)?.title} server ${number}`;
  if (problem && !editing) setEditing(true);
  const open = editing || problem;
  return (
    <fieldset className={open ? 'mcp-row' : 'mcp-row mcp-row-collapsed'}>
      <legend className="visually-hidden">{name}</legend>
      {!open && <code className="mcp-row-summary">{rowSummary(row)}</code>}
      {open &&
        (row.kind === 'stdio' ? (
          <>
            <div className="form-row">
              <InputField
                id={id('name')}
                label="Name"
                error={errors[path('name')]}
                type="text"
                spellCheck={false}
                value={row.name}
                onChange={(e) => onChange({ name: e.target.value })}
              />
              <InputField
                id={id('command')}
                label="Command"
                error={errors[path('command')]}
                type="text"
                spellCheck={false}
                placeholder="e.g. npx"
                value={row.command}
                onChange={(e) => onChange({ command: e.target.value })}
              />
            </div>
            <InputField
              id={id('args')}
              label="Arguments"
              hint="Separated by spaces."
              error={errors[path('args')]}
              type="text"
              spellCheck={false}
              value={row.args}
              onChange={(e) => onChange({ args: e.target.value })}
            />
            <Field
              id={id('env')}
              label="Environment"
              hint="One NAME=value per line. Values are kept in the keychain; ********** keeps the stored value."
              error={envError}
            >
              {(control) => (
                <textarea
                  {...control}
                  rows={2}
                  spellCheck={false}
                  value={row.env}
                  onChange={(e) => onChange({ env: e.target.value })}
                />
              )}
            </Field>
          </>
        ) : (
          <div className="form-row">
            <InputField
              id={id('url')}
              label="URL"
              error={errors[path('url')]}
              type="url"
              spellCheck={false}
              placeholder="https://…"
              value={row.url}
              onChange={(e) => onChange({ url: e.target.value })}
            />
            <InputField
              id={id('key')}
              label="API key (optional)"
              hint={
                row.apiKey === MASKED_API_KEY ? 'A key is stored; type a new one to replace it.' : undefined
              }
              error={errors[path('api_key')]}
              type="password"
              autoComplete="off"
              value={row.apiKey}
              onFocus={(e) => row.apiKey === MASKED_API_KEY && e.target.select()}
              onChange={(e) => onChange({ apiKey: e.target.value })}
            />
            {row.kind === 'shttp' && (
              <InputField
                id={id('timeout')}
                label="Timeout (s)"
                hint="1–3600; empty means 60."
                error={errors[path('timeout')]}
                className="input-short"
                type="number"
                min={1}
                max={3600}
                placeholder="60"
                value={row.timeout}
                onChange={(e) => onChange({ timeout: e.target.value })}
              />
            )}
          </div>
        ))}
      <div className="mcp-row-actions">
        {!startOpen && (
          <button
            type="button"
            className="button-secondary button-small"
            aria-expanded={open}
            onClick={() => setEditing(!open)}
          >
            {open ? 'Done' : 'Edit'}
            <span className="visually-hidden"> {open ? `editing ${name}` : name}</span>
          </button>
        )}
        {/* The row's name is in the button's text (not a label), so a field's label stays its own. */}
        <button type="button" className="button-secondary button-small" onClick={onRemove}>
          Remove<span className="visually-hidden"> {name}</span>
        </button>
      </div>
    </fieldset>
  );
}

/** The MCP servers every conversation gets, by transport, saved with the settings. */
export function McpServersForm({ settings }: { settings: StoredSettings | null }) {
  const [rows, setRows] = useState(() => rowsOf(settings?.mcp_config ?? null));
  // The rows that were saved when the form opened: they start as one line each.
  const [savedIds] = useState(() => new Set(rows.map((row) => row.id)));
  const save = useSaveSettings();
  const shownFields = rows.flatMap((row) =>
    ['url', 'api_key', 'timeout', 'name', 'command', 'args', 'env'].map((field) =>
      fieldPath(rows, row, field),
    ),
  );
  const errors = formErrors(save.error, shownFields, PATTERN_HINTS(rows));
  const [showAll, setShowAll] = useState<ReadonlySet<McpKind>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const localProblems = attempted && rows.some((row) => row.kind === 'stdio' && envProblem(row.env));
  const problemIn = (row: McpRow) =>
    (row.kind === 'stdio' && envProblem(row.env) !== null) ||
    Object.keys(errors.fields).some((key) => key.startsWith(fieldPath(rows, row, '')));

  function update(rowId: number, change: Partial<McpRow>) {
    setRows((current) => current.map((row) => (row.id === rowId ? { ...row, ...change } : row)));
    if (!save.isPending) save.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    if (rows.some((row) => row.kind === 'stdio' && envProblem(row.env))) return;
    save.mutate({ loaded: settings, edits: { mcp_config: configOf(rows) } });
  }

  return (
    <form className="form mcp-form" onSubmit={submit} noValidate aria-labelledby="mcp-heading">
      <h2 id="mcp-heading">MCP servers</h2>
      <p className="muted">
        Tools from these Model Context Protocol servers are offered to the agent in every conversation.
      </p>
      {KINDS.map(({ kind, title, hint }) => {
        const ofKind = rows.filter((row) => row.kind === kind);
        // A long list shows its first servers; the rest on request, or at once when one is new or has a problem.
        const folded =
          ofKind.length > FOLDED_LIST + 1 &&
          !showAll.has(kind) &&
          !ofKind.slice(FOLDED_LIST).some((row) => !savedIds.has(row.id) || problemIn(row));
        const shown = folded ? ofKind.slice(0, FOLDED_LIST) : ofKind;
        return (
          <section key={kind} className="mcp-kind" aria-label={`${title} servers`}>
            <div className="mcp-kind-heading">
              <h3>{title}</h3>
              <p className="field-hint">{hint}</p>
              <button
                type="button"
                className="button-secondary button-small"
                onClick={() => setRows((current) => [...current, emptyRow(kind)])}
              >
                Add {title} server
              </button>
            </div>
            {ofKind.length === 0 && <p className="empty-inline">None.</p>}
            {shown.map((row, index) => (
              <ServerRow
                key={row.id}
                row={row}
                number={index + 1}
                startOpen={!savedIds.has(row.id)}
                problem={problemIn(row)}
                errors={errors.fields}
                path={(field) => fieldPath(rows, row, field)}
                onChange={(change) => update(row.id, change)}
                onRemove={() => setRows((current) => current.filter((r) => r.id !== row.id))}
              />
            ))}
            {folded && (
              <div>
                <button
                  type="button"
                  className="button-secondary button-small"
                  onClick={() => setShowAll((current) => new Set([...current, kind]))}
                >
                  Show {ofKind.length - FOLDED_LIST} more {title} servers
                </button>
              </div>
            )}
          </section>
        );
      })}
      <FormProblems
        title="MCP servers were not saved"
        general={errors.general}
        fieldsMarked={localProblems || Object.keys(errors.fields).length > 0}
      />
      <SubmitActions
        label="Save MCP servers"
        pendingLabel="Saving…"
        pending={save.isPending}
        done={save.isSuccess && 'MCP servers saved.'}
      />
    </form>
  );
}
