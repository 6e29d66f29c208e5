import { describe, expect, it } from 'vitest';
import { configOf, emptyRow, envProblem, fieldPath, rowsOf, rowSummary } from './mcp-draft';

describe('MCP server rows', () => {
  it('round-trips the three kinds, keeping a masked key as loaded', () => {
    const rows = rowsOf({
      sse_servers: [{ url: 'https://a.test/sse', api_key: '**********' }],
      shttp_servers: [{ url: 'https://b.test/mcp', api_key: null, timeout: 90 }],
      stdio_servers: [{ name: 'fs', command: 'npx', args: ['-y', 'server'], env: { A: '1', B: 'x=y' } }],
    });
    expect(configOf(rows)).toEqual({
      sse_servers: [{ url: 'https://a.test/sse', api_key: '**********' }],
      shttp_servers: [{ url: 'https://b.test/mcp', api_key: null, timeout: '90' }],
      stdio_servers: [{ name: 'fs', command: 'npx', args: ['-y', 'server'], env: { A: '1', B: 'x=y' } }],
    });
  });

  it('names each row field as the service’s 422 does', () => {
    const [first, sse, second] = [emptyRow('stdio'), emptyRow('sse'), emptyRow('stdio')];
    const rows = [first, sse, second];
    expect(fieldPath(rows, second, 'name')).toBe('mcp_config.stdio_servers.1.name');
    expect(fieldPath(rows, sse, 'url')).toBe('mcp_config.sse_servers.0.url');
  });

  it('says which env line is not NAME=value', () => {
    expect(envProblem('A=1\n\nB=')).toBeNull();
    expect(envProblem('A=1\noops')).toBe('Write each variable as NAME=value (not “oops”).');
  });

  it('sums a saved server up in one line: its URL, or its name, command line and variable count', () => {
    const [sse, stdio] = rowsOf({
      sse_servers: [{ url: 'https://a.test/sse', api_key: null }],
      shttp_servers: [],
      stdio_servers: [{ name: 'fs', command: 'npx', args: ['-y', 'server'], env: { A: '1', B: '2' } }],
    });
    expect(sse && rowSummary(sse)).toBe('https://a.test/sse');
    expect(stdio && rowSummary(stdio)).toBe('fs: npx -y server (2 variables)');
    expect(rowSummary(emptyRow('stdio'))).toBe('unnamed: no command yet');
  });
});
