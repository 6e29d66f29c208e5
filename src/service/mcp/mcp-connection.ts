import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from './server-config';
import { errorResult, formatToolResult, timeoutResult, unavailableResult } from './tool-result';
import type { ResultImage } from './tool-result';

/** How long `initialize` + `tools/list` may take per server (agent-behaviour §3.4). */
export const DISCOVERY_TIMEOUT_MS = 30_000;
const CLIENT_INFO = { name: 'dockhand', version: '1.0.0' };

export interface CallOutcome {
  text: string;
  images: ResultImage[];
  isError: boolean;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Rejects after `ms` with `message`, closing nothing itself. */
function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One MCP server of a conversation: an SDK client over a fresh transport, its tools (listed once at
 * discovery), and tool calls with the server's timeout. A server that dies is reconnected once per call;
 * if that fails the call answers that the server is not available.
 */
export class McpConnection {
  private client: Client | null = null;
  private alive = false;
  private listed: Tool[] = [];
  private readonly calls = new Set<AbortController>();

  constructor(
    readonly server: McpServer,
    private readonly open: () => Promise<Transport>,
    private readonly discoveryTimeoutMs = DISCOVERY_TIMEOUT_MS,
  ) {}

  get tools(): Tool[] {
    return this.listed;
  }

  /** `initialize` + `tools/list` (all pages), within the discovery timeout. */
  async discover(): Promise<void> {
    await withTimeout(
      (async () => {
        await this.connect();
        const tools: Tool[] = [];
        let cursor: string | undefined;
        do {
          const page = await this.requireClient().listTools(cursor ? { cursor } : undefined, {
            timeout: this.discoveryTimeoutMs,
          });
          tools.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor);
        this.listed = tools;
      })(),
      this.discoveryTimeoutMs,
      `no answer within ${this.discoveryTimeoutMs / 1000} seconds`,
    ).catch(async (error: unknown) => {
      await this.close();
      throw error;
    });
  }

  /**
   * Calls `tool` (the server's name for it); `shownName` is the model's name, used in the timeout text.
   * Never throws: failures become `{"isError":true,...}` results.
   */
  async call(
    tool: string,
    shownName: string,
    args: Record<string, unknown>,
    vision: boolean,
  ): Promise<CallOutcome> {
    const controller = new AbortController();
    this.calls.add(controller);
    try {
      return await this.callOnce(tool, shownName, args, vision, controller.signal, true);
    } finally {
      this.calls.delete(controller);
    }
  }

  /** Stop: cancels the calls in flight (the SDK sends `notifications/cancelled`). */
  cancelCalls(): void {
    for (const controller of this.calls)
      controller.abort(new Error('The call was cancelled by the user (Stop).'));
  }

  async close(): Promise<void> {
    this.cancelCalls();
    const client = this.client;
    this.client = null;
    this.alive = false;
    await client?.close().catch(() => undefined);
  }

  private async callOnce(
    tool: string,
    shownName: string,
    args: Record<string, unknown>,
    vision: boolean,
    signal: AbortSignal,
    mayReconnect: boolean,
  ): Promise<CallOutcome> {
    const failed = (text: string): CallOutcome => ({ text, images: [], isError: true });
    if (!this.alive) {
      if (!mayReconnect) return failed(unavailableResult(this.server.name, 'the connection was closed'));
      try {
        await withTimeout(this.connect(), this.discoveryTimeoutMs, 'no answer to initialize');
      } catch (error) {
        await this.close();
        return failed(unavailableResult(this.server.name, reasonOf(error)));
      }
      mayReconnect = false;
    }
    try {
      const result = await this.requireClient().callTool({ name: tool, arguments: args }, undefined, {
        timeout: this.server.timeoutS * 1000,
        signal,
      });
      return formatToolResult(result, vision);
    } catch (error) {
      if (signal.aborted) return failed(errorResult(reasonOf(signal.reason)));
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        return failed(timeoutResult(shownName, this.server.timeoutS));
      }
      if (this.alive && error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
        return failed(errorResult(error.message));
      }
      // The connection failed: reconnect once and try again.
      this.alive = false;
      if (!mayReconnect) return failed(unavailableResult(this.server.name, reasonOf(error)));
      return this.callOnce(tool, shownName, args, vision, signal, true);
    }
  }

  private async connect(): Promise<void> {
    await this.client?.close().catch(() => undefined);
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const transport = await this.open();
    client.onclose = () => {
      if (this.client === client) this.alive = false;
    };
    this.client = client;
    await client.connect(transport, { timeout: this.discoveryTimeoutMs });
    this.alive = true;
  }

  private requireClient(): Client {
    if (!this.client) throw new Error('not connected');
    return this.client;
  }
}
