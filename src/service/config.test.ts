import { describe, expect, it } from 'vitest';
import { cliEnvironment, resolveServiceConfig } from './config';

describe('resolveServiceConfig', () => {
  it('fills unset options from the environment', () => {
    const config = resolveServiceConfig(
      { dataDir: '/data' },
      {
        DOCKHAND_SECRETS: 'file',
        DOCKHAND_SESSION_API_KEY: 'fixed-key',
        DOCKHAND_RATE_LIMIT: '20',
        DOCKHAND_ALLOWED_ORIGINS: 'http://localhost:5173',
        DOCKHAND_LOG_LEVEL: 'debug',
        DOCKHAND_CONVERSATION_IDLE_S: '5',
        DOCKHAND_SETUP_TIMEOUT_S: '7',
        DOCKHAND_LLM_IDLE_TIMEOUT_S: '2',
        DOCKHAND_MCP_CALL_TIMEOUT_S: '3',
      },
    );
    expect(config).toMatchObject({
      dataDir: '/data',
      secretsBackend: 'file',
      sessionApiKey: 'fixed-key',
      rateLimitPerSecond: 20,
      allowedOrigins: ['http://localhost:5173'],
      logLevel: 'debug',
      limits: {
        idleSeconds: 5,
        setupTimeoutSeconds: 7,
        llmTiming: { idleTimeoutMs: 2000 },
        mcpCallTimeoutSeconds: 3,
      },
    });
  });

  it('has defaults for an empty environment', () => {
    expect(resolveServiceConfig({ dataDir: '/data' }, {})).toMatchObject({
      secretsBackend: 'keychain',
      sessionApiKey: undefined,
      rateLimitPerSecond: 1000,
      allowedOrigins: [],
      logLevel: 'info',
      limits: { idleSeconds: 3600, setupTimeoutSeconds: 600, llmTiming: {}, mcpCallTimeoutSeconds: null },
    });
  });

  it('keeps the options it is given, and does not read the variables they replace', () => {
    const config = resolveServiceConfig(
      {
        dataDir: '/data',
        rateLimitPerSecond: 5,
        allowedOrigins: [],
        limits: { idleSeconds: 0, mcpCallTimeoutSeconds: null },
      },
      {
        DOCKHAND_RATE_LIMIT: 'fast',
        DOCKHAND_ALLOWED_ORIGINS: 'not an origin',
        DOCKHAND_CONVERSATION_IDLE_S: '-1',
        DOCKHAND_MCP_CALL_TIMEOUT_S: '3',
      },
    );
    expect(config.rateLimitPerSecond).toBe(5);
    expect(config.allowedOrigins).toEqual([]);
    expect(config.limits).toMatchObject({ idleSeconds: 0, mcpCallTimeoutSeconds: null });
  });

  it('keeps a copy of the environment for the sandbox layer, read at start', () => {
    const env: NodeJS.ProcessEnv = { DOCKHAND_SANDBOX_IMAGE: 'img', DOCKER_HOST: 'unix:///x.sock' };
    const config = resolveServiceConfig({ dataDir: '/data' }, env);
    env.DOCKHAND_SANDBOX_IMAGE = 'changed later';
    expect(config.environment).toEqual({ DOCKHAND_SANDBOX_IMAGE: 'img', DOCKER_HOST: 'unix:///x.sock' });
  });

  it('stops the start on a malformed variable it needs', () => {
    expect(() => resolveServiceConfig({ dataDir: '/data' }, { DOCKHAND_RATE_LIMIT: '0' })).toThrow(
      /DOCKHAND_RATE_LIMIT/,
    );
  });
});

describe('cliEnvironment', () => {
  it('reads the data folder, port, secrets backend and session key', () => {
    const env = {
      DOCKHAND_DATA_DIR: '/tmp/dockhand-data',
      DOCKHAND_PORT: '4000',
      DOCKHAND_SESSION_API_KEY: 'k',
    };
    expect(cliEnvironment(env)).toEqual({
      dataDir: '/tmp/dockhand-data',
      port: '4000',
      secretsBackend: 'keychain',
      sessionApiKey: 'k',
      environment: env,
    });
  });
});
