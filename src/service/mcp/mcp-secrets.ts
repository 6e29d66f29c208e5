import { MASKED_API_KEY, type MCPConfig } from '../../shared/api/mcp';
import type { SecretStore } from '../secrets/secret-store';

/**
 * The secrets of an MCP config — each URL server's `api_key` and every stdio server's `env` value — kept in the
 * secret store under one account prefix (`mcp:` for the settings, `mcp:<conversation id>:` for a start
 * request). SQLite keeps the config with the keys left out and each stored `env` value as MASKED_API_KEY.
 */

type UrlServer = { url: string; api_key?: string | null | undefined };

function keyAccount(prefix: string, url: string): string {
  return `${prefix}${url}`;
}

function envAccount(prefix: string, server: string, name: string): string {
  return `${prefix}stdio:${server}:env:${name}`;
}

function urlServers(config: MCPConfig): UrlServer[] {
  return [...config.sse_servers, ...config.shttp_servers];
}

/** Every account `config` (as kept in SQLite) refers to. */
function accounts(prefix: string, config: MCPConfig | null | undefined): string[] {
  if (!config) return [];
  return [
    ...urlServers(config).map((server) => keyAccount(prefix, server.url)),
    ...config.stdio_servers.flatMap((server) =>
      Object.keys(server.env).map((name) => envAccount(prefix, server.name, name)),
    ),
  ];
}

/** Whether a config kept in SQLite still holds a secret in plain text (written before secrets moved out). */
export function holdsPlainSecrets(config: MCPConfig | null | undefined): boolean {
  if (!config) return false;
  return (
    urlServers(config).some((server) => Boolean(server.api_key) && server.api_key !== MASKED_API_KEY) ||
    config.stdio_servers.some((server) =>
      Object.values(server.env).some((value) => value !== '' && value !== MASKED_API_KEY),
    )
  );
}

/** Whether `server` runs the same program as the stdio server of its name in `previous` (command and args). */
function sameProgram(
  server: MCPConfig['stdio_servers'][number],
  previous: MCPConfig | null | undefined,
): boolean {
  const before = previous?.stdio_servers.find((candidate) => candidate.name === server.name);
  return (
    before !== undefined &&
    before.command === server.command &&
    JSON.stringify(before.args) === JSON.stringify(server.args)
  );
}

/**
 * Moves the secrets of `config` into the store and returns what SQLite may keep. A MASKED_API_KEY sent back
 * keeps the stored value only for the server it was saved for — a URL server of `previous` with that URL, a
 * stdio server of `previous` with that name, command and args — so a write-only secret never follows a server
 * to another program or address: otherwise the stored value is deleted (an `env` value becomes `""`, to be
 * entered again). An empty `api_key` removes it. Accounts of `previous` that `config` no longer has are deleted.
 */
export async function storeMcpSecrets(
  store: SecretStore,
  prefix: string,
  config: MCPConfig,
  previous?: MCPConfig | null,
): Promise<MCPConfig> {
  const savedUrls = new Set(previous ? urlServers(previous).map((server) => server.url) : []);
  const stripKey = async <T extends UrlServer>(server: T): Promise<T> => {
    const { api_key: apiKey, ...rest } = server;
    const account = keyAccount(prefix, server.url);
    if (apiKey && apiKey !== MASKED_API_KEY) await store.set(account, apiKey);
    else if (!apiKey || !savedUrls.has(server.url)) await forget(store, account);
    return rest as T;
  };
  const stdio = [];
  for (const server of config.stdio_servers) {
    const keepsStored = sameProgram(server, previous);
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(server.env)) {
      const account = envAccount(prefix, server.name, name);
      if (value === '') env[name] = '';
      else if (value === MASKED_API_KEY && !keepsStored) {
        await forget(store, account);
        env[name] = '';
      } else {
        if (value !== MASKED_API_KEY) await store.set(account, value);
        env[name] = MASKED_API_KEY;
      }
    }
    stdio.push({ ...server, env });
  }
  const kept: MCPConfig = {
    sse_servers: await Promise.all(config.sse_servers.map(stripKey)),
    shttp_servers: await Promise.all(config.shttp_servers.map(stripKey)),
    stdio_servers: stdio,
  };
  await forgetMcpSecrets(store, prefix, previous, kept);
  return kept;
}

/** Deletes the accounts that `previous` refers to and `next` does not (all of them without `next`). */
export async function forgetMcpSecrets(
  store: SecretStore,
  prefix: string,
  previous: MCPConfig | null | undefined,
  next?: MCPConfig | null,
): Promise<void> {
  const kept = new Set(accounts(prefix, next));
  for (const account of accounts(prefix, previous)) if (!kept.has(account)) await forget(store, account);
}

/** The config kept in SQLite with its secrets back from the store, for connecting to the servers. */
export async function withMcpSecrets(
  store: SecretStore,
  prefix: string,
  config: MCPConfig,
): Promise<MCPConfig> {
  const withKey = async <T extends UrlServer>(server: T) => ({
    ...server,
    api_key: await store.get(keyAccount(prefix, server.url)),
  });
  const stdio = [];
  for (const server of config.stdio_servers) {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(server.env)) {
      // A value not yet moved out (before the start's migration ran) is used as it is.
      env[name] =
        value === MASKED_API_KEY ? ((await store.get(envAccount(prefix, server.name, name))) ?? '') : value;
    }
    stdio.push({ ...server, env });
  }
  return {
    sse_servers: await Promise.all(config.sse_servers.map(withKey)),
    shttp_servers: await Promise.all(config.shttp_servers.map(withKey)),
    stdio_servers: stdio,
  };
}

/** The config as clients see it: each stored `api_key` and every non-empty `env` value as MASKED_API_KEY. */
export async function maskedMcpConfig(store: SecretStore, prefix: string, config: MCPConfig) {
  const mask = async <T extends UrlServer>(server: T) => ({
    ...server,
    api_key: (await store.get(keyAccount(prefix, server.url))) ? MASKED_API_KEY : null,
  });
  return {
    sse_servers: await Promise.all(config.sse_servers.map(mask)),
    shttp_servers: await Promise.all(config.shttp_servers.map(mask)),
    stdio_servers: config.stdio_servers.map((server) => ({
      ...server,
      env: Object.fromEntries(
        Object.entries(server.env).map(([name, value]) => [name, value === '' ? '' : MASKED_API_KEY]),
      ),
    })),
  };
}

/** Deletes an account if it holds a value; with the store down there is nothing to reach. */
async function forget(store: SecretStore, account: string): Promise<void> {
  if (store.status.state === 'ok' && (await store.get(account))) await store.delete(account);
}
