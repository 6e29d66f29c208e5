import type { ContentBlock, ToolCallContent } from '@agentclientprotocol/sdk';
import { createPatch } from 'diff';

/** ACP content read as text: content blocks, a tool call's content and raw output, a diff made unified. */

export function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function blockText(block: ContentBlock): string {
  if (block.type === 'text') return block.text;
  if (block.type === 'resource_link') return block.uri;
  if (block.type === 'resource') return 'text' in block.resource ? block.resource.text : block.resource.uri;
  return `[${block.type}]`;
}

export function unifiedDiff(path: string, oldText: string | null | undefined, newText: string): string {
  return createPatch(path, oldText ?? '', newText);
}

export function contentText(content: ToolCallContent[]): string {
  return content
    .map((item) =>
      item.type === 'content'
        ? blockText(item.content)
        : item.type === 'diff'
          ? unifiedDiff(item.path, item.oldText, item.newText)
          : `[terminal ${item.terminalId}]`,
    )
    .join('\n');
}

/** What a call's raw output says, as text: a string, `output`/`stdout`+`stderr`, else its JSON. */
export function outputText(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  if (typeof raw === 'string') return raw;
  const fields = record(raw);
  const joined = [fields.output, fields.stdout, fields.stderr, fields.formatted_output]
    .map(str)
    .filter(Boolean)
    .join('\n');
  return joined || JSON.stringify(raw);
}
