/** Server-sent events: parsing a provider's stream as it arrives, and writing one. */

export interface SseEvent {
  event: string | null;
  data: string;
}

/** Splits a byte stream into events; `push` returns the events completed by a chunk. */
export class SseParser {
  private buffer = '';
  private readonly decoder = new TextDecoder();

  push(chunk: Uint8Array): SseEvent[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    return this.drain(false);
  }

  /** The last event, when the stream ended without a blank line after it. */
  end(): SseEvent[] {
    this.buffer += this.decoder.decode();
    return this.drain(true);
  }

  private drain(final: boolean): SseEvent[] {
    const events: SseEvent[] = [];
    // A CR at the end may be the first half of a CRLF that the next chunk completes.
    const held = !final && this.buffer.endsWith('\r') ? '\r' : '';
    const text = held ? this.buffer.slice(0, -1) : this.buffer;
    const blocks = text.replace(/\r\n?/g, '\n').split('\n\n');
    this.buffer = final ? '' : (blocks.pop() ?? '') + held;
    for (const block of blocks) {
      let event: string | null = null;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0 || event !== null) events.push({ event, data: data.join('\n') });
    }
    return events;
  }
}

/** The JSON of an event's data, or undefined when it is not JSON (`[DONE]`). */
export function eventJson(event: SseEvent): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(event.data);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** One event as written: with its name when the API names events (Anthropic, Responses). */
export function sseEvent(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}
