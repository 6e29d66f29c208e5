import { useState, type FormEvent } from 'react';
import { MASKED_API_KEY } from '../../../shared/api/mcp';
import { useSaveSettings, type StoredSettings } from '../api/settings-queries';
import { Field, InputField } from '../ui/Field';
import { formErrors } from '../ui/form-errors';
import { FormProblems, SubmitActions } from '../ui/FormFooter';
import { configOf, emptyRow, envProblem, fieldPath, rowsOf, type McpKind, type McpRow } from './mcp-draft';

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
    hint: 'A program started inside each sandbox, spoken to over its standard input and output.',
  },
];

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
  errors: Record<string, string>;
  path: (field: string) => string;
  onChange: (change: Partial<McpRow>) => void;
  onRemove: () => void;
}

function ServerRow({ row, number, errors, path, onChange, onRemove }: RowProps) {
  const id = (field: string) => `mcp-${row.kind}-${row.id}-${field}`;
  const envError = row.kind === 'stdio' ? (envProblem(row.env) ?? errors[path('env')]) : undefined;
  return (
    <fieldset className="mcp-row">
      <legend className="visually-hidden">
        {KINDS.find((k) => k.kind === row.kind)?.title} server {number}
      </legend>
      {row.kind === 'stdio' ? (
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
      )}
      <div>
        <button type="button" className="button-secondary button-small" onClick={onRemove}>
          Remove {KINDS.find((k) => k.kind === row.kind)?.title} server {number}
        </button>
      </div>
    </fieldset>
  );
}

/** The MCP servers every conversation gets, by transport, saved with the settings. */
export function McpServersForm({ settings }: { settings: StoredSettings | null }) {
  const [rows, setRows] = useState(() => rowsOf(settings?.mcp_config ?? null));
  const save = useSaveSettings();
  const shownFields = rows.flatMap((row) =>
    ['url', 'api_key', 'timeout', 'name', 'command', 'args', 'env'].map((field) =>
      fieldPath(rows, row, field),
    ),
  );
  const errors = formErrors(save.error, shownFields, PATTERN_HINTS(rows));
  const [attempted, setAttempted] = useState(false);
  const localProblems = attempted && rows.some((row) => row.kind === 'stdio' && envProblem(row.env));

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
    <form className="form" onSubmit={submit} noValidate aria-labelledby="mcp-heading">
      <h2 id="mcp-heading">MCP servers</h2>
      <p className="muted">
        Tools from these Model Context Protocol servers are offered to the agent in every conversation.
      </p>
      {KINDS.map(({ kind, title, hint }) => {
        const ofKind = rows.filter((row) => row.kind === kind);
        return (
          <section key={kind} className="mcp-kind" aria-label={`${title} servers`}>
            <h3>{title}</h3>
            <p className="field-hint">{hint}</p>
            {ofKind.length === 0 && <p className="empty-inline">None.</p>}
            {ofKind.map((row, index) => (
              <ServerRow
                key={row.id}
                row={row}
                number={index + 1}
                errors={errors.fields}
                path={(field) => fieldPath(rows, row, field)}
                onChange={(change) => update(row.id, change)}
                onRemove={() => setRows((current) => current.filter((r) => r.id !== row.id))}
              />
            ))}
            <div>
              <button
                type="button"
                className="button-secondary button-small"
                onClick={() => setRows((current) => [...current, emptyRow(kind)])}
              >
                Add {title} server
              </button>
            </div>
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
