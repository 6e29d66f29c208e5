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
