import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpConnection } from './mcp-connection';
import type { StdioServer } from './server-config';

const SERVER: StdioServer = { kind: 'stdio', name: 'mem', command: 'x', args: [], env: {}, timeoutS: 1 };

/** A server reached over in-memory transports; `kill()` closes the current one, `down` refuses new ones. */
function memoryServer() {
  const state = { down: false, opened: 0, current: null as InMemoryTransport | null };
  const open = async () => {
    if (state.down) throw new Error('connection refused');
    const [client, server] = InMemoryTransport.createLinkedPair();
    const mcp = new McpServer({ name: 'mem', version: '1.0.0' });
    mcp.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }));
    mcp.registerTool('fail', { inputSchema: {} }, async () => {
      throw new Error('it broke');
    });
    mcp.registerTool('slow', { inputSchema: {} }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      return { content: [] };
    });
    await mcp.connect(server);
    state.opened += 1;
    state.current = server;
    return client;
  };
  return { state, open, kill: () => state.current?.close() };
}

describe('McpConnection', () => {
  it('discovers tools and calls them', async () => {
    const server = memoryServer();
    const connection = new McpConnection(SERVER, server.open);
    await connection.discover();
    expect(connection.tools.map((t) => t.name)).toEqual(['add', 'fail', 'slow']);
    expect(await connection.call('add', 'add', { a: 2, b: 3 }, false)).toEqual({
      text: '5',
      images: [],
      isError: false,
    });
    expect((await connection.call('fail', 'fail', {}, false)).text).toBe(
      '{"isError":true,"error":"it broke"}',
    );
    expect((await connection.call('slow', 'mem_slow', {}, false)).text).toBe(
      '{"isError":true,"error":"Tool \\"mem_slow\\" timed out after 1 seconds"}',
    );
    await connection.close();
  });

  it('reconnects once to a server that closed, and reports a server that stays down', async () => {
    const server = memoryServer();
    const connection = new McpConnection(SERVER, server.open);
    await connection.discover();
    await server.kill();
    expect((await connection.call('add', 'add', { a: 1, b: 1 }, false)).text).toBe('2');
    expect(server.state.opened).toBe(2);
    await server.kill();
    server.state.down = true;
    expect((await connection.call('add', 'add', { a: 1, b: 1 }, false)).text).toBe(
      '{"isError":true,"error":"MCP server \\"mem\\" is not available: connection refused"}',
    );
    await connection.close();
  });

  it('cancels calls in flight on Stop', async () => {
    const server = memoryServer();
    const connection = new McpConnection({ ...SERVER, timeoutS: 60 }, server.open);
    await connection.discover();
    const call = connection.call('slow', 'slow', {}, false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    connection.cancelCalls();
    expect((await call).text).toBe('{"isError":true,"error":"The call was cancelled by the user (Stop)."}');
    await connection.close();
  });

  it('fails discovery of a server that does not answer in time', async () => {
    const connection = new McpConnection(SERVER, async () => InMemoryTransport.createLinkedPair()[0], 200);
    await expect(connection.discover()).rejects.toThrow();
  });
});
