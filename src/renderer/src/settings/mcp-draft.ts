import type { StoredSettings } from '../api/settings-queries';

export type McpKind = 'sse' | 'shttp' | 'stdio';

export interface McpRow {
  id: number;
  kind: McpKind;
  url: string;
  /** As loaded: the mask `**********` for a stored key, which the service keeps when sent back. */
  apiKey: string;
  timeout: string;
  name: string;
  command: string;
  /** Arguments separated by spaces. */
  args: string;
  /** `NAME=value`, one per line. */
  env: string;
}

let nextId = 0;

export function emptyRow(kind: McpKind): McpRow {
  return { id: nextId++, kind, url: '', apiKey: '', timeout: '', name: '', command: '', args: '', env: '' };
}

export function rowsOf(config: StoredSettings['mcp_config']): McpRow[] {
  if (!config) return [];
  return [
    ...config.sse_servers.map((s) => ({ ...emptyRow('sse'), url: s.url, apiKey: s.api_key ?? '' })),
    ...config.shttp_servers.map((s) => ({
      ...emptyRow('shttp'),
      url: s.url,
      apiKey: s.api_key ?? '',
      timeout: String(s.timeout),
    })),
    ...config.stdio_servers.map((s) => ({
      ...emptyRow('stdio'),
      name: s.name,
      command: s.command,
      args: s.args.join(' '),
      env: Object.entries(s.env)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n'),
    })),
  ];
}

/** A saved server in one line, for its collapsed row: its URL, or its name and command line. */
export function rowSummary(row: McpRow): string {
  if (row.kind !== 'stdio') return row.url.trim() || 'No URL yet';
  const command = [row.command.trim(), row.args.trim()].filter(Boolean).join(' ');
  const variables = row.env.split('\n').filter((line) => line.trim() !== '').length;
  const env = variables === 0 ? '' : variables === 1 ? ' (1 variable)' : ` (${variables} variables)`;
  return `${row.name.trim() || 'unnamed'}: ${command || 'no command yet'}${env}`;
}

/** The lines of an env text that are not `NAME=value`, or null when all are. */
export function envProblem(text: string): string | null {
  const bad = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^[^=\s]+=/.test(line));
  return bad.length > 0 ? `Write each variable as NAME=value (not “${bad[0]}”).` : null;
}

function envOf(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    const at = trimmed.indexOf('=');
    if (at > 0) env[trimmed.slice(0, at)] = trimmed.slice(at + 1);
  }
  return env;
}

/**
 * The MCPConfig to save, with each row's path in it (`mcp_config.sse_servers.0.url` names the first SSE
 * row's URL), so that the service's 422 errors land on the right field.
 */
export function configOf(rows: McpRow[]) {
  const of = (kind: McpKind) => rows.filter((row) => row.kind === kind);
  const key = (row: McpRow) => (row.apiKey.trim() === '' ? null : row.apiKey.trim());
  return {
    sse_servers: of('sse').map((row) => ({ url: row.url.trim(), api_key: key(row) })),
    shttp_servers: of('shttp').map((row) => ({
      url: row.url.trim(),
      api_key: key(row),
      ...(row.timeout.trim() ? { timeout: row.timeout.trim() } : {}),
    })),
    stdio_servers: of('stdio').map((row) => ({
      name: row.name.trim(),
      command: row.command.trim(),
      args: row.args.split(/\s+/).filter(Boolean),
      env: envOf(row.env),
    })),
  };
}

const LISTS: Record<McpKind, string> = { sse: 'sse_servers', shttp: 'shttp_servers', stdio: 'stdio_servers' };

/** The path of a row's field in the saved body, as a 422 names it. */
export function fieldPath(rows: McpRow[], row: McpRow, field: string): string {
  const index = rows.filter((r) => r.kind === row.kind).indexOf(row);
  return `mcp_config.${LISTS[row.kind]}.${index}.${field}`;
}
