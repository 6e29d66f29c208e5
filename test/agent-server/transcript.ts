import { writeFileSync } from 'node:fs';
import type { TranscriptLine } from './agent-server-client';

const MAX_STRING = 160;

/** Long strings (the system prompt, tool schemas) shortened so the transcript stays readable. */
function shorten(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} chars)` : value;
  }
  if (Array.isArray(value)) {
    return value.length > 6
      ? [...value.slice(0, 3).map(shorten), `… ${value.length - 3} more`]
      : value.map(shorten);
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
  }
  return value;
}

function render(line: TranscriptLine): string {
  if (line.dir === 'rest') {
    const body = line.body === null ? '' : ` ${JSON.stringify(shorten(line.body))}`;
    return `REST ${line.call}${body}  →  ${line.status} ${JSON.stringify(shorten(line.answer))}`;
  }
  return `${line.dir === 'recv' ? '⇐ recv' : '⇒ send'} ${JSON.stringify(shorten(line.frame))}`;
}

/** Writes the transcript as Markdown to `file`. */
export function writeTranscript(file: string, title: string, intro: string, lines: TranscriptLine[]): void {
  const text = [`# ${title}`, '', intro, '', '```text', ...lines.map(render), '```', ''].join('\n');
  writeFileSync(file, text);
}

/** One call of a client, for a transcript of calls (method, path, status). */
export interface CallLine {
  target: string;
  method: string;
  path: string;
  status: number | null;
}

/** Writes calls as a Markdown table to `file`, with each of `names`' values (ids that change) shown as its key. */
export function writeCallTranscript(
  file: string,
  title: string,
  intro: string,
  calls: CallLine[],
  names: Record<string, string>,
): void {
  const stable = (path: string) =>
    Object.entries(names).reduce((text, [name, value]) => text.replaceAll(value, `{${name}}`), path);
  const rows = calls.map(
    (call, i) =>
      `| ${i + 1} | ${call.target} | ${call.method} | \`${stable(call.path)}\` | ${call.status ?? '—'} |`,
  );
  const table = ['| # | host | method | path | status |', '| --- | --- | --- | --- | --- |', ...rows];
  writeFileSync(file, [`# ${title}`, '', intro, '', ...table, ''].join('\n'));
}
