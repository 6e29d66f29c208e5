import type { SecretMasker } from '../events/secret-masker';
import type { LlmClient, LlmCost, LlmUsage } from './llm/llm-types';

/** Marks the title call in its system prompt, so scripted model servers can tell it from the agent's. */
export const TITLE_MARKER = '[dockhand:title]';
export const MAX_TITLE_CHARS = 50;
const FALLBACK_CHARS = 30;
/** The part of the first message the model sees: enough to name it, cheap to send. */
const MESSAGE_CHARS_SENT = 1000;

const SYSTEM_PROMPT = `${TITLE_MARKER}
You name conversations between a user and a coding assistant. Given the first message of a conversation, reply with a short, specific title of at most ${MAX_TITLE_CHARS} characters that says what the conversation is about. Reply with the title only: no quotes, no trailing period, no explanation.`;

/** What the title call cost, for the conversation's metrics and budget (service `title`). */
export interface TitleCall {
  model: string;
  usage: LlmUsage;
  cost: LlmCost;
  latencyMs: number;
  attempts: number;
}

export interface GeneratedTitle {
  /** Masked; at most 50 characters, or the fallback. */
  title: string;
  /** The model call, or null when it failed before answering. */
  call: TitleCall | null;
}

/** Cuts to `max` characters, the last three being `...`. */
function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** The title in the model's reply: its first non-empty line, without quotes, a "Title:" label or a final period. */
function titleIn(reply: string): string {
  const line = reply
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  return (line ?? '')
    .replace(/^(\*\*)?title:(\*\*)?\s*/i, '')
    .replace(/^["'`*]+|["'`*.]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first 30 characters of the message (+ `...` when it is longer). */
function fallbackTitle(message: string): string {
  return message.length > FALLBACK_CHARS ? `${message.slice(0, FALLBACK_CHARS)}...` : message;
}

/**
 * Names a conversation after its first user message with one model call (agent-behaviour §8): the reply,
 * cut to 47 characters + `...` when longer than 50; on any failure the message's first 30 characters +
 * `...`. The message and the title are masked (before cutting, so no part of a secret survives).
 * Null when the message has no text to name it by.
 */
export async function generateTitle(
  llm: LlmClient,
  firstMessage: string,
  masker: SecretMasker,
): Promise<GeneratedTitle | null> {
  const message = masker.maskText(firstMessage).trim();
  if (!message) return null;
  let call: TitleCall | null = null;
  let title = '';
  try {
    const reply = await llm.complete({
      system: SYSTEM_PROMPT,
      messages: [
        {
          role: 'user',
          content: `The conversation starts with this message:\n\n${cut(message, MESSAGE_CHARS_SENT)}`,
        },
      ],
    });
    const { model, usage, cost, latencyMs, attempts } = reply;
    call = { model, usage, cost, latencyMs, attempts };
    title = titleIn(masker.maskText(reply.text));
  } catch {
    // Any failure (after the client's retries) falls back to the message itself.
  }
  return { title: title ? cut(title, MAX_TITLE_CHARS) : fallbackTitle(message.replace(/\s+/g, ' ')), call };
}
