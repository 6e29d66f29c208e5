import type { V0Event } from '../../../shared/api/events';
import type { LlmClient, LlmRequest, LlmResponse } from '../llm/llm-types';
import summaryPrompt from './summary-prompt.md?raw';

/** Starts the summarizer's system prompt, so that a scripted model server can tell the channel apart. */
export const CONDENSER_MARKER = '[dockhand:condenser]';
/** Each event and the previous summary are cut to this many characters before they are summarized. */
const MAX_EVENT_CHARS = 10_000;

function cut(text: string): string {
  if (text.length <= MAX_EVENT_CHARS) return text;
  const half = MAX_EVENT_CHARS / 2;
  return `${text.slice(0, half)}\n[... ${text.length - MAX_EVENT_CHARS} characters cut ...]\n${text.slice(-half)}`;
}

/** An event as the summarizer reads it: a message's text, an action's arguments, an observation's content. */
function eventText(event: V0Event): string {
  if (event.action === 'message') return String(event.args?.content ?? event.message);
  if (event.action !== undefined) return JSON.stringify(event.args ?? {});
  return event.content ?? '';
}

/** The summarizer's user message: the previous summary, then each event to summarize with its id. */
export function summaryRequestText(previousSummary: string | null, events: V0Event[]): string {
  const blocks = [
    `<PREVIOUS_SUMMARY>\n${previousSummary === null ? '(none)' : cut(previousSummary)}\n</PREVIOUS_SUMMARY>`,
    ...events.map(
      (e) =>
        `<EVENT id=${e.id} source=${e.source} ${e.action ? `action=${e.action}` : `observation=${e.observation}`}>\n${cut(eventText(e))}\n</EVENT>`,
    ),
    'Write the summary now.',
  ];
  return blocks.join('\n\n');
}

export interface SummaryCall {
  previousSummary: string | null;
  events: V0Event[];
  llm: LlmClient;
  signal?: AbortSignal;
  onRetry?: LlmRequest['onRetry'];
}

/** One call to the agent's model (service `condenser`) that summarizes `events` and the previous summary. */
export function summarize(call: SummaryCall): Promise<LlmResponse> {
  return call.llm.complete({
    system: summaryPrompt.trim(),
    messages: [{ role: 'user', content: summaryRequestText(call.previousSummary, call.events) }],
    signal: call.signal,
    onRetry: call.onRetry,
  });
}
