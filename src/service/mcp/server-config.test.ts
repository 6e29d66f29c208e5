import { describe, expect, it } from 'vitest';
import { MCPConfig } from '../../shared/api/mcp';
import { mergeServers, nameFromUrl, timeoutOverrideFromEnv } from './server-config';

const config = (value: unknown) => MCPConfig.parse(value);

describe('mergeServers', () => {
  it('merges settings, request and microagent servers; the later source wins a clash in place', () => {
    const servers = mergeServers({
      settings: config({
        sse_servers: ['http://127.0.0.1:9000/sse'],
        shttp_servers: [{ url: 'http://127.0.0.1:9001/mcp', api_key: 'old', timeout: 20 }],
        stdio_servers: [{ name: 'fs', command: 'npx', args: ['fs-server'] }],
      }),
      request: config({
        shttp_servers: [{ url: 'http://127.0.0.1:9001/mcp', api_key: 'new' }],
        stdio_servers: [{ name: 'git', command: 'uvx', args: ['mcp-git'] }],
      }),
      microagents: [{ name: 'fs', command: 'node', args: ['fs.js'], env: { A: '1' } }],
    });
    expect(servers).toEqual([
      {
        kind: 'sse',
        name: '127_0_0_1_9000_sse',
        url: 'http://127.0.0.1:9000/sse',
        apiKey: null,
        timeoutS: 60,
      },
      {
        kind: 'shttp',
        name: '127_0_0_1_9001_mcp',
        url: 'http://127.0.0.1:9001/mcp',
        apiKey: 'new',
        timeoutS: 60,
      },
      { kind: 'stdio', name: 'fs', command: 'node', args: ['fs.js'], env: { A: '1' }, timeoutS: 60 },
      { kind: 'stdio', name: 'git', command: 'uvx', args: ['mcp-git'], env: {}, timeoutS: 60 },
    ]);
  });

  it('keeps a streamable HTTP server timeout and makes names unique', () => {
    const servers = mergeServers({
      settings: config({ shttp_servers: [{ url: 'http://a.test/x', timeout: 5 }] }),
      request: config({ stdio_servers: [{ name: 'a_test_x', command: 'node' }] }),
      microagents: [],
    });
    expect(servers.map((s) => [s.name, s.timeoutS])).toEqual([
      ['a_test_x', 5],
      ['a_test_x_2', 60],
    ]);
  });

  it('applies a timeout override to every server', () => {
    const servers = mergeServers({
      settings: config({ shttp_servers: [{ url: 'http://a.test/x', timeout: 5 }] }),
      request: null,
      microagents: [{ name: 's', command: 'node', args: [], env: {} }],
      timeoutOverrideS: 2,
    });
    expect(servers.map((s) => s.timeoutS)).toEqual([2, 2]);
    expect(timeoutOverrideFromEnv({ DOCKHAND_MCP_CALL_TIMEOUT_S: '3' })).toBe(3);
    expect(timeoutOverrideFromEnv({})).toBeNull();
  });

  it('names URL servers by host, port and path', () => {
    expect(nameFromUrl('https://mcp.example.com/v1/sse')).toBe('mcp_example_com_v1_sse');
    expect(nameFromUrl('http://localhost:8080')).toBe('localhost_8080');
  });
});
