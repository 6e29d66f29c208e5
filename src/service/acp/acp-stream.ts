import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How much of the agent's stderr is kept for error messages. */
const STDERR_TAIL = 4000;

/** An agent process's JSON-RPC stream, with what it wrote to stderr and how it ended. */
export interface AgentStream {
  stream: Stream;
  /** The end of the process's stderr (for "the agent ended" messages). */
  stderr(): string;
  /** Ends the process. */
  close(): Promise<void>;
}

/**
 * The ACP stream over a stdio transport of a process started in the sandbox (`SandboxWorkspace`'s, which
 * frames newline-delimited JSON-RPC). A line that is not JSON-RPC (`onerror`) or the end of the process
 * (`onclose`) ends the stream: `broken` says why, and the connection then fails what is pending.
 */
export async function agentStream(
  transport: Transport,
  broken: (error: Error) => void,
): Promise<AgentStream> {
  let tail = '';
  // A process transport hands stderr out as a stream: read, or the agent blocks once the pipe is full.
  const stderr = (transport as { stderr?: unknown }).stderr;
  if (stderr && typeof stderr === 'object' && 'on' in stderr) {
    (stderr as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
  }
  const stderrText = () => (typeof stderr === 'string' ? stderr : (transport as { stderr?: unknown }).stderr);
  let ended = false;
  // The connection may have cancelled the stream already (it closes it when it closes).
  const settle = (end: () => void) => {
    try {
      end();
    } catch {
      // already closed
    }
  };
  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      transport.onmessage = (message) => {
        if (!ended) controller.enqueue(message as AnyMessage);
      };
      transport.onerror = (error) => {
        if (ended) return;
        ended = true;
        broken(new Error(`The agent sent something that is not ACP JSON-RPC: ${error.message}`));
        settle(() => controller.error(error));
        void transport.close().catch(() => undefined);
      };
      transport.onclose = () => {
        if (ended) return;
        ended = true;
        broken(new Error('The agent process ended.'));
        settle(() => controller.close());
      };
    },
  });
  const writable = new WritableStream<AnyMessage>({
    write: (message) => transport.send(message as JSONRPCMessage),
  });
  await transport.start();
  return {
    stream: { readable, writable },
    stderr: () => {
      const text = stderrText();
      return (typeof text === 'string' ? text : tail).trim();
    },
    close: async () => {
      ended = true;
      await transport.close().catch(() => undefined);
    },
  };
}
