import type { V0Event } from '../../shared/api/events';
import { IMAGE_OMITTED } from '../mcp/tool-result';
import type { CallMetadata } from './call-metadata';
import { SUMMARY_OBSERVATION } from './condenser/condensed-view';
import { imageParts } from './images';
import type { ModelMessage } from './llm/llm-types';
import { supportsVision } from './llm/model-table';

const MAX_OBSERVATION_CHARS = 30_000;
const ERROR_SUFFIX = '\n[Error occurred in processing last action]';

interface OpenResponse {
  id: string;
  thought: string;
  calls: { id: string; name: string; input: unknown }[];
  results: Map<string, string>;
  /** Images of results (MCP), by call id, in call order. */
  images: Map<string, string[]>;
}

function cutMiddle(text: string): string {
  if (text.length <= MAX_OBSERVATION_CHARS) return text;
  const half = MAX_OBSERVATION_CHARS / 2;
  return `${text.slice(0, half)}\n[... Observation truncated due to length ...]\n${text.slice(-half)}`;
}

/** The text the model reads for an observation. */
function observationText(event: V0Event): string {
  const content = event.content ?? '';
  if (event.observation === 'error') return content + ERROR_SUFFIX;
  if (event.observation === 'user_rejected') {
    return `OBSERVATION:\n${content}\n[Last action has been rejected by the user]`;
  }
  return event.observation === 'edit' || event.observation === 'read' ? content : cutMiddle(content);
}

function isHidden(event: V0Event): boolean {
  return Boolean(
    (event.args as { hidden?: unknown } | undefined)?.hidden ||
    (event.extras as { hidden?: unknown } | undefined)?.hidden,
  );
}

function imagesOf(event: V0Event, field: 'args' | 'extras' = 'args'): string[] {
  const urls = (event[field] as { image_urls?: unknown } | undefined)?.image_urls;
  return Array.isArray(urls) ? urls.filter((u): u is string => typeof u === 'string') : [];
}

/**
 * The images of tool results for a vision model, as one user message right after the results (OpenAI tool
 * messages cannot hold images; Anthropic gets them in the same user turn, after the tool_result blocks).
 */
function resultImagesMessage(
  calls: { id: string; name: string }[],
  images: Map<string, string[]>,
  model: string | undefined,
): ModelMessage | null {
  if (!seesImages(model)) return null;
  const content = calls.flatMap((call) => {
    const urls = images.get(call.id) ?? [];
    if (urls.length === 0) return [];
    const label = `Images returned by the tool ${call.name} (call ${call.id}):`;
    return [{ type: 'text' as const, text: label }, ...imageParts(urls, model)];
  });
  return content.length > 0 ? { role: 'user', content } : null;
}

function seesImages(model: string | undefined): model is string {
  return model !== undefined && supportsVision(model);
}

/**
 * Text followed by `[image omitted]` for each image: images kept for a vision model (a user's, or a tool
 * result's) still say they were there after a switch to a model without vision.
 */
function withOmittedImages(text: string, images: readonly string[]): string {
  return [text, ...images.map(() => IMAGE_OMITTED)].join('\n');
}

/** A user message's text, followed by its images (`Image N:` before each) when the model can see them. */
function userContent(text: string, images: string[], model: string | undefined) {
  if (images.length === 0) return text;
  if (!seesImages(model)) return withOmittedImages(text, images);
  return [{ type: 'text' as const, text }, ...imageParts(images, model)];
}

/** What a tool result says to the model, with `[image omitted]` for images a model without vision cannot see. */
function resultText(response: OpenResponse, callId: string, model: string | undefined): string {
  const text = response.results.get(callId) as string;
  const images = response.images.get(callId) ?? [];
  return images.length > 0 && !seesImages(model) ? withOmittedImages(text, images) : text;
}

function argument(event: V0Event, name: string): string {
  return String((event.args as Record<string, unknown> | undefined)?.[name] ?? '');
}

/**
 * Builds the model's messages from the event log (or a condensed view of it): user and agent messages;
 * each model response's tool calls as one assistant message followed by their results in call order (a call
 * without a result, or a result without its call, is left out); recall context and summaries as user text;
 * commands the user typed as user text. State changes, system and hidden events are left out.
 */
export function buildMessages(events: V0Event[], model?: string): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const callOfAction = new Map<number, CallMetadata>();
  const userCommands = new Set<number>();
  let open: OpenResponse | null = null;

  const flush = () => {
    const response = open;
    open = null;
    const answered = response?.calls.filter((c) => response.results.has(c.id)) ?? [];
    if (!response || answered.length === 0) return;
    messages.push({
      role: 'assistant',
      content: [
        ...(response.thought ? [{ type: 'text' as const, text: response.thought }] : []),
        ...answered.map((c) => ({
          type: 'tool-call' as const,
          toolCallId: c.id,
          toolName: c.name,
          input: c.input,
        })),
      ],
    });
    messages.push({
      role: 'tool',
      content: answered.map((c) => ({
        type: 'tool-result' as const,
        toolCallId: c.id,
        toolName: c.name,
        output: { type: 'text' as const, value: resultText(response, c.id, model) },
      })),
    });
    const images = resultImagesMessage(answered, response.images, model);
    if (images) messages.push(images);
  };
  const say = (message: ModelMessage) => {
    flush();
    messages.push(message);
  };
  const responseFor = (call: CallMetadata): OpenResponse => {
    if (open?.id !== call.model_response.id) {
      flush();
      open = { id: call.model_response.id, thought: '', calls: [], results: new Map(), images: new Map() };
    }
    return open;
  };

  for (const event of events) {
    if (isHidden(event)) continue;
    const metadata = event.tool_call_metadata as CallMetadata | undefined;
    if (event.source === 'user' && event.action === 'run') {
      userCommands.add(event.id);
      say({ role: 'user', content: `User executed the command:\n${argument(event, 'command')}` });
    } else if (event.observation === 'run' && event.cause !== undefined && userCommands.has(event.cause)) {
      say({
        role: 'user',
        content: `Observed result of command executed by user:\n${cutMiddle(event.content ?? '')}`,
      });
    } else if (event.action === 'message' && event.source === 'user') {
      say({
        role: 'user',
        content: userContent(argument(event, 'content') || event.message, imagesOf(event), model),
      });
    } else if (event.action === 'message') {
      say({ role: 'assistant', content: argument(event, 'content') || event.message });
    } else if (event.action === 'finish') {
      say({ role: 'assistant', content: argument(event, 'final_thought') });
    } else if (event.action && metadata) {
      const response = responseFor(metadata);
      if (response.calls.length === 0) response.thought = argument(event, 'thought');
      if (!response.calls.some((c) => c.id === metadata.tool_call_id)) {
        response.calls.push({
          id: metadata.tool_call_id,
          name: metadata.function_name,
          input: metadata.arguments ?? {},
        });
      }
      callOfAction.set(event.id, metadata);
    } else if (
      (event.observation === 'recall' || event.observation === SUMMARY_OBSERVATION) &&
      event.content
    ) {
      say({ role: 'user', content: event.content });
    } else if (event.observation && event.observation !== 'agent_state_changed') {
      const call = metadata ?? (event.cause !== undefined ? callOfAction.get(event.cause) : undefined);
      if (!call) continue;
      const response = responseFor(call);
      if (!response.calls.some((c) => c.id === call.tool_call_id)) {
        // A call answered without running (unknown tool, invalid arguments): the model still made it.
        response.calls.push({ id: call.tool_call_id, name: call.function_name, input: call.arguments ?? {} });
      }
      response.results.set(call.tool_call_id, observationText(event));
      response.images.set(call.tool_call_id, imagesOf(event, 'extras'));
    }
  }
  flush();
  return messages;
}
