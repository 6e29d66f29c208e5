import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/service/storage/database';
import { MASKED_API_KEY } from '../../src/shared/api/mcp';
import { startTestService, tempDataDir, type TestService } from '../support/service';

const ENV_TOKEN = 'ghp_mcp-stdio-env-token-4b8d';
const API_KEY = 'mcp-shttp-api-key-2f6a';
const SHTTP = 'http://127.0.0.1:9/mcp';
const MCP_CONFIG = {
  sse_servers: [],
  shttp_servers: [{ url: SHTTP, api_key: API_KEY, timeout: 30 }],
  stdio_servers: [
    { name: 'github', command: 'github-mcp', args: [], env: { GITHUB_TOKEN: ENV_TOKEN, EMPTY: '' } },
  ],
};

/** Everything SQLite wrote to the data folder (database, WAL and shared memory), as text. */
function sqliteFiles(dataDir: string): string {
  return readdirSync(dataDir)
    .filter((name) => name.includes('.db') || name.includes('sqlite'))
    .map((name) => readFileSync(path.join(dataDir, name)).toString('latin1'))
    .join('\n');
}

describe('MCP secrets live in the keychain', () => {
  let service: TestService | undefined;

  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it('MCP stdio env tokens are stored in SQLite in plain text and returned by GET /api/settings', async () => {
    service = await startTestService({ realKeychain: true });
    const saved = await service.api('POST', '/api/settings', { body: { mcp_config: MCP_CONFIG } });
    expect(saved.status).toBe(200);

    const shown = (await service.api('GET', '/api/settings')).json as { mcp_config: typeof MCP_CONFIG };
    expect(shown.mcp_config.stdio_servers[0]?.env).toEqual({ GITHUB_TOKEN: MASKED_API_KEY, EMPTY: '' });
    expect(shown.mcp_config.shttp_servers[0]?.api_key).toBe(MASKED_API_KEY);
    expect(JSON.stringify(shown)).not.toContain(ENV_TOKEN);
    expect(sqliteFiles(service.dataDir)).not.toContain(ENV_TOKEN);
    expect(sqliteFiles(service.dataDir)).not.toContain(API_KEY);
    expect(service.service.context.secrets.status.backend).toBe('keychain');
    expect(service.service.context.secrets.values()).toContain(ENV_TOKEN);
    expect(service.service.context.masker.maskText(`token ${ENV_TOKEN}`)).toBe('token <secret_hidden>');

    // Saving what GET showed keeps the stored values.
    expect(
      (await service.api('POST', '/api/settings', { body: { mcp_config: shown.mcp_config } })).status,
    ).toBe(200);
    expect(await service.service.context.settings.mcpConfig()).toEqual({
      ...MCP_CONFIG,
      shttp_servers: [{ url: SHTTP, api_key: API_KEY, timeout: 30 }],
    });

    // A removed variable leaves the keychain too.
    const withoutToken = {
      ...MCP_CONFIG,
      stdio_servers: [{ name: 'github', command: 'github-mcp', args: [], env: {} }],
    };
    await service.api('POST', '/api/settings', { body: { mcp_config: withoutToken } });
    expect(service.service.context.secrets.values()).not.toContain(ENV_TOKEN);
  });

  it('a stored MCP secret follows its server to another command, other args or another URL', async () => {
    service = await startTestService({ realKeychain: true });
    const svc = service;
    const secrets = svc.service.context.secrets;
    const save = async (config: unknown) => {
      expect((await svc.api('POST', '/api/settings', { body: { mcp_config: config } })).status).toBe(200);
    };
    const shown = async () =>
      ((await svc.api('GET', '/api/settings')).json as { mcp_config: typeof MCP_CONFIG }).mcp_config;
    const withStdio = (config: typeof MCP_CONFIG, change: Record<string, unknown>) => ({
      ...config,
      stdio_servers: config.stdio_servers.map((server) => ({ ...server, ...change })),
    });

    // Unchanged, the masked values sent back keep the stored ones.
    await save(MCP_CONFIG);
    await save(await shown());
    expect(await svc.service.context.settings.mcpConfig()).toEqual(MCP_CONFIG);

    // Another command (the masked values sent back as GET showed them): the env token is dropped.
    await save(withStdio(await shown(), { command: 'other-mcp' }));
    expect(secrets.values()).not.toContain(ENV_TOKEN);
    const moved = await svc.service.context.settings.mcpConfig();
    expect(moved?.stdio_servers).toEqual([
      { name: 'github', command: 'other-mcp', args: [], env: { GITHUB_TOKEN: '', EMPTY: '' } },
    ]);
    expect((await shown()).stdio_servers[0]?.env).toEqual({ GITHUB_TOKEN: '', EMPTY: '' });
    // The URL server kept its address, and its key.
    expect(moved?.shttp_servers[0]?.api_key).toBe(API_KEY);

    // Other args: dropped too.
    await save(MCP_CONFIG);
    expect(secrets.values()).toContain(ENV_TOKEN);
    await save(withStdio(await shown(), { args: ['--host', 'attacker.example'] }));
    expect(secrets.values()).not.toContain(ENV_TOKEN);
    expect((await svc.service.context.settings.mcpConfig())?.stdio_servers[0]?.env.GITHUB_TOKEN).toBe('');

    // Another URL with the masked key: the key stays behind and is deleted.
    await save(MCP_CONFIG);
    const elsewhere = await shown();
    await save({
      ...elsewhere,
      shttp_servers: [{ ...elsewhere.shttp_servers[0], url: 'http://127.0.0.1:9/elsewhere' }],
    });
    expect(secrets.values()).not.toContain(API_KEY);
    const relocated = await svc.service.context.settings.mcpConfig();
    expect(relocated?.shttp_servers).toEqual([
      { url: 'http://127.0.0.1:9/elsewhere', api_key: null, timeout: 30 },
    ]);
    expect((await shown()).shttp_servers[0]?.api_key).toBeNull();
    // The stdio server did not change: its token stayed.
    expect(relocated?.stdio_servers[0]?.env.GITHUB_TOKEN).toBe(ENV_TOKEN);
  });

  it('MCP secrets left in SQLite by an older version stay there in plain text after a restart', async () => {
    const dataDir = tempDataDir();
    service = await startTestService({ realKeychain: true, dataDir });
    await service.close({ keepData: true });
    service = undefined;
    // The row as an older version wrote it: stdio env values and an api_key in plain text.
    const db = openDatabase(dataDir);
    db.prepare(
      `INSERT INTO settings (id, data, updated_at) VALUES (1, ?, ?)
       ON CONFLICT(id) DO UPDATE SET data = excluded.data`,
    ).run(JSON.stringify({ llm_model: 'openai/gpt-4o', mcp_config: MCP_CONFIG }), new Date().toISOString());
    db.close();
    expect(sqliteFiles(dataDir)).toContain(ENV_TOKEN);

    service = await startTestService({ realKeychain: true, dataDir });
    const row = service.service.db.prepare('SELECT data FROM settings WHERE id = 1').get() as {
      data: string;
    };
    expect(row.data).not.toContain(ENV_TOKEN);
    expect(row.data).not.toContain(API_KEY);
    service.service.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    expect(sqliteFiles(dataDir)).not.toContain(ENV_TOKEN);
    expect(await service.service.context.settings.mcpConfig()).toEqual(MCP_CONFIG);
    const shown = (await service.api('GET', '/api/settings')).json as { mcp_config: typeof MCP_CONFIG };
    expect(shown.mcp_config.stdio_servers[0]?.env.GITHUB_TOKEN).toBe(MASKED_API_KEY);
  });
});
