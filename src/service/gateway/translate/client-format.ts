import type { ChatReply, ChatStreamSink } from './chat-reply';
import type { Json } from './json';

/** Writes one client format's stream from a streamed Chat reply. */
export interface StreamWriter extends ChatStreamSink {
  /** Before the first part: the events that open the reply. */
  start(id: string): void;
  /** After the last part: the events that close it, with the finish reason and usage. */
  finish(reply: ChatReply): void;
  /** The provider failed mid-stream: the format's own error event. */
  fail(message: string): void;
}

/** A client API the gateway translates to and from OpenAI Chat Completions. */
export interface ClientFormat {
  /** The client's request as a Chat request for `model`. */
  toChat(body: Json, model: string, stream: boolean): Json;
  /** A whole Chat reply as the client's reply to `request`. */
  fromChat(reply: ChatReply, model: string, request: Json): Json;
  writer(emit: (chunk: string) => void, model: string, request: Json): StreamWriter;
}
