import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestResponse, type TestService } from '../support/service';

const STORED = { status: 200, body: { message: 'Settings stored' } };

/** GET /api/settings of a service whose settings were only ever saved as `{}`. */
const DEFAULT_VIEW = {
  llm_api_key_set: false,
  language: null,
  agent: null,
  max_iterations: null,
  security_analyzer: null,
  confirmation_mode: null,
  llm_model: null,
  llm_api_key: null,
  llm_base_url: null,
  remote_runtime_resource_factor: null,
  secrets_store: { provider_tokens: {}, custom_secrets: {} },
  enable_default_condenser: true,
  enable_sound_notifications: false,
  enable_proactive_conversation_starters: true,
  enable_solvability_analysis: true,
  user_consents_to_analytics: null,
  sandbox_base_container_image: null,
  sandbox_runtime_container_image: null,
  mcp_config: null,
  search_api_key: null,
  sandbox_api_key: null,
  max_budget_per_task: null,
  email: null,
  email_verified: null,
  git_user_name: 'dockhand',
  git_user_email: 'dockhand@localhost',
  provider_tokens_set: {},
  provider_tokens_unverified: [],
  search_api_key_set: false,
  sandbox_api_key_set: false,
  condenser_max_size: null,
  v1_enabled: null,
  sandbox_provider: 'docker',
  max_concurrent_conversations: 3,
  max_live_sandboxes: 5,
  sandbox_warm_pool: 1,
  default_agent: 'dockhand',
  sandbox_network: 'gated',
  egress_policy: 'balanced',
  egress_allow: [],
  egress_deny: [],
};

function outcome(response: TestResponse) {
  return { status: response.status, body: response.json };
}

describe('settings (GET/POST /api/settings)', () => {
  let svc: TestService;
  const save = async (body: unknown) => outcome(await svc.api('POST', '/api/settings', { body }));
  const view = async () => {
    const response = await svc.api('GET', '/api/settings');
    expect(response.status).toBe(200);
    return response.json as Record<string, unknown>;
  };

  beforeEach(async () => {
    svc = await startTestService();
  });
  afterEach(async () => {
    await svc.close();
  });

  it('answers 404 until settings are first saved, then the full object with defaults', async () => {
    expect(outcome(await svc.api('GET', '/api/settings'))).toEqual({
      status: 404,
      body: { detail: 'Settings not found' },
    });
    expect(await save({})).toEqual(STORED);
    expect(await view()).toEqual(DEFAULT_VIEW);
  });

  it('stores the LLM key in the secret store and reports only llm_api_key_set', async () => {
    expect(await save({ llm_model: 'openai/gpt-4o', llm_api_key: 'sk-t' })).toEqual(STORED);
    expect(await view()).toMatchObject({
      llm_model: 'openai/gpt-4o',
      llm_api_key: null,
      llm_api_key_set: true,
    });
    expect(await svc.service.context.secrets.get('llm_api_key')).toBe('sk-t');

    expect(await save({ llm_model: 'x/y' })).toEqual(STORED);
    expect(await view()).toMatchObject({ llm_model: 'x/y', llm_api_key_set: true });

    expect(await save({ llm_api_key: null })).toEqual(STORED);
    expect(await view()).toMatchObject({ llm_api_key_set: true });

    expect(await save({ llm_api_key: '' })).toEqual(STORED);
    expect(await view()).toMatchObject({ llm_model: 'x/y', llm_api_key_set: false });
    expect(await svc.service.context.secrets.get('llm_api_key')).toBeNull();
  });

  it('treats search and sandbox keys like the LLM key', async () => {
    expect(await save({ search_api_key: 'tvly-1', sandbox_api_key: 'sbx-1' })).toEqual(STORED);
    expect(await view()).toMatchObject({
      search_api_key: null,
      search_api_key_set: true,
      sandbox_api_key: null,
      sandbox_api_key_set: true,
    });
    expect(await save({ search_api_key: '' })).toEqual(STORED);
    expect(await view()).toMatchObject({ search_api_key_set: false, sandbox_api_key_set: true });
  });

  it('replaces the whole object, keeping only the keep-if-null fields', async () => {
    expect(
      await save({
        language: 'fr',
        max_iterations: 50,
        confirmation_mode: true,
        security_analyzer: 'llm',
        llm_model: 'anthropic/claude-sonnet-4-5-20250929',
        llm_base_url: 'http://localhost:11434',
        user_consents_to_analytics: false,
        git_user_name: 'Ada',
        enable_sound_notifications: true,
      }),
    ).toEqual(STORED);
    expect(await save({ language: 'de' })).toEqual(STORED);
    expect(await view()).toEqual({
      ...DEFAULT_VIEW,
      language: 'de',
      llm_model: 'anthropic/claude-sonnet-4-5-20250929',
      llm_base_url: 'http://localhost:11434',
      user_consents_to_analytics: false,
    });

    expect(await save({ llm_model: null, llm_base_url: '', user_consents_to_analytics: true })).toEqual(
      STORED,
    );
    expect(await view()).toMatchObject({
      language: null,
      llm_model: 'anthropic/claude-sonnet-4-5-20250929',
      llm_base_url: '',
      user_consents_to_analytics: true,
    });
  });

  it('keeps the network settings when a client that does not know them saves', async () => {
    const network = {
      sandbox_network: 'bridge',
      egress_policy: 'model_only',
      egress_allow: ['*.corp.example', '10.0.0.0/8'],
      egress_deny: ['evil.example:443'],
    };
    expect(await save(network)).toEqual(STORED);
    expect(await save({ language: 'en' })).toEqual(STORED);
    expect(await view()).toMatchObject(network);
    expect(await save({ egress_allow: [], egress_deny: [] })).toEqual(STORED);
    expect(await view()).toMatchObject({ ...network, egress_allow: [], egress_deny: [] });
  });

  it('ignores unknown and read-only keys, so GET-edit-POST round-trips', async () => {
    expect(await save({ llm_api_key: 'sk-keep', language: 'en', max_iterations: 42 })).toEqual(STORED);
    const current = await view();
    expect(
      await save({
        ...current,
        language: 'es',
        colour: 'red',
        llm_api_key_set: false,
        search_api_key_set: true,
        provider_tokens_set: { github: 'evil.example' },
        secrets_store: { provider_tokens: { github: { token: 'x' } }, custom_secrets: {} },
      }),
    ).toEqual(STORED);
    expect(await view()).toEqual({ ...current, language: 'es' });
  });

  it('accepts lax numbers and booleans like pydantic', async () => {
    expect(
      await save({
        max_iterations: '120',
        confirmation_mode: 'yes',
        max_budget_per_task: '2.5',
        v1_enabled: 0,
      }),
    ).toEqual(STORED);
    expect(await view()).toMatchObject({
      max_iterations: 120,
      confirmation_mode: true,
      max_budget_per_task: 2.5,
      v1_enabled: false,
    });
  });

  it('answers bad values with FastAPI 422 entries and stores nothing', async () => {
    expect(await save({ language: 'en' })).toEqual(STORED);
    const cases: [unknown, unknown[]][] = [
      [
        { max_iterations: 'abc' },
        [
          {
            type: 'int_parsing',
            loc: ['body', 'max_iterations'],
            msg: 'Input should be a valid integer, unable to parse string as an integer',
            input: 'abc',
          },
        ],
      ],
      [
        { max_iterations: 0 },
        [
          {
            type: 'greater_than_equal',
            loc: ['body', 'max_iterations'],
            msg: 'Input should be greater than or equal to 1',
            input: 0,
            ctx: { ge: 1 },
          },
        ],
      ],
      [
        { max_iterations: 10_001 },
        [
          {
            type: 'less_than_equal',
            loc: ['body', 'max_iterations'],
            msg: 'Input should be less than or equal to 10000',
            input: 10_001,
            ctx: { le: 10_000 },
          },
        ],
      ],
      [
        { confirmation_mode: 'maybe' },
        [
          {
            type: 'bool_parsing',
            loc: ['body', 'confirmation_mode'],
            msg: 'Input should be a valid boolean, unable to interpret input',
            input: 'maybe',
          },
        ],
      ],
      [
        { language: 5 },
        [{ type: 'string_type', loc: ['body', 'language'], msg: 'Input should be a valid string', input: 5 }],
      ],
      [
        { agent: 'PlannerAgent' },
        [
          {
            type: 'enum',
            loc: ['body', 'agent'],
            msg: "Input should be 'CodeActAgent'",
            input: 'PlannerAgent',
            ctx: { expected: "'CodeActAgent'" },
          },
        ],
      ],
      [
        { security_analyzer: 'invariant' },
        [
          {
            type: 'enum',
            loc: ['body', 'security_analyzer'],
            msg: "Input should be '', 'rules' or 'llm'",
            input: 'invariant',
            ctx: { expected: "'', 'rules' or 'llm'" },
          },
        ],
      ],
      [
        { sandbox_warm_pool: 6 },
        [
          {
            type: 'less_than_equal',
            loc: ['body', 'sandbox_warm_pool'],
            msg: 'Input should be less than or equal to 5',
            input: 6,
            ctx: { le: 5 },
          },
        ],
      ],
      [
        { sandbox_warm_pool: -1 },
        [
          {
            type: 'greater_than_equal',
            loc: ['body', 'sandbox_warm_pool'],
            msg: 'Input should be greater than or equal to 0',
            input: -1,
            ctx: { ge: 0 },
          },
        ],
      ],
      [
        { max_budget_per_task: 0 },
        [
          {
            type: 'greater_than',
            loc: ['body', 'max_budget_per_task'],
            msg: 'Input should be greater than 0',
            input: 0,
            ctx: { gt: 0 },
          },
        ],
      ],
      [
        { mcp_config: 'none' },
        [
          {
            type: 'model_attributes_type',
            loc: ['body', 'mcp_config'],
            msg: 'Input should be a valid dictionary or object to extract fields from',
            input: 'none',
          },
        ],
      ],
      [
        { mcp_config: { sse_servers: [], colour: 'red' } },
        [
          {
            type: 'extra_forbidden',
            loc: ['body', 'mcp_config', 'colour'],
            msg: 'Extra inputs are not permitted',
            input: 'red',
          },
        ],
      ],
      [
        { mcp_config: { sse_servers: ['localhost:8080/sse'] } },
        [
          {
            type: 'value_error',
            loc: ['body', 'mcp_config', 'sse_servers', 0],
            msg: 'Value error, URL must include a scheme (http:// or https://)',
            input: 'localhost:8080/sse',
          },
        ],
      ],
      [
        { max_iterations: 'x', condenser_max_size: 5 },
        [
          {
            type: 'int_parsing',
            loc: ['body', 'max_iterations'],
            msg: 'Input should be a valid integer, unable to parse string as an integer',
            input: 'x',
          },
          {
            type: 'greater_than_equal',
            loc: ['body', 'condenser_max_size'],
            msg: 'Input should be greater than or equal to 20',
            input: 5,
            ctx: { ge: 20 },
          },
        ],
      ],
    ];
    for (const [body, detail] of cases) {
      expect(await save({ ...(body as object), llm_api_key: 'sk-never' }), JSON.stringify(body)).toEqual({
        status: 422,
        body: { detail },
      });
    }
    expect(await view()).toMatchObject({ language: 'en', llm_api_key_set: false });
  });

  describe('MCP servers', () => {
    const sse = 'http://127.0.0.1:9/sse';
    const shttp = 'https://mcp.example/mcp';

    it('masks stored api_keys and keeps them when the mask is posted back', async () => {
      expect(
        await save({
          mcp_config: {
            sse_servers: [{ url: sse, api_key: 'mcp-sse-key' }],
            shttp_servers: [{ url: shttp, api_key: 'mcp-shttp-key', timeout: 30 }],
            stdio_servers: [{ name: 'fs', command: 'npx', args: ['-y', 'mcp-fs'], env: { ROOT: '/w' } }],
          },
        }),
      ).toEqual(STORED);
      const shown = await view();
      expect(shown.mcp_config).toEqual({
        sse_servers: [{ url: sse, api_key: '**********' }],
        shttp_servers: [{ url: shttp, api_key: '**********', timeout: 30 }],
        stdio_servers: [{ name: 'fs', command: 'npx', args: ['-y', 'mcp-fs'], env: { ROOT: '**********' } }],
      });

      expect(await save({ mcp_config: shown.mcp_config })).toEqual(STORED);
      expect(await svc.service.context.settings.mcpConfig()).toEqual({
        sse_servers: [{ url: sse, api_key: 'mcp-sse-key' }],
        shttp_servers: [{ url: shttp, api_key: 'mcp-shttp-key', timeout: 30 }],
        stdio_servers: [{ name: 'fs', command: 'npx', args: ['-y', 'mcp-fs'], env: { ROOT: '/w' } }],
      });

      expect(
        await save({
          mcp_config: { sse_servers: [{ url: sse, api_key: null }], shttp_servers: [], stdio_servers: [] },
        }),
      ).toEqual(STORED);
      expect((await view()).mcp_config).toEqual({
        sse_servers: [{ url: sse, api_key: null }],
        shttp_servers: [],
        stdio_servers: [],
      });
      expect(await svc.service.context.secrets.get(`mcp:${sse}`)).toBeNull();
      expect(await svc.service.context.secrets.get(`mcp:${shttp}`)).toBeNull();
    });

    it('accepts a bare URL string as an SSE server and fills defaults', async () => {
      expect(await save({ mcp_config: { sse_servers: [sse], shttp_servers: [{ url: shttp }] } })).toEqual(
        STORED,
      );
      expect((await view()).mcp_config).toEqual({
        sse_servers: [{ url: sse, api_key: null }],
        shttp_servers: [{ url: shttp, api_key: null, timeout: 60 }],
        stdio_servers: [],
      });
    });
  });

  it('answers the removed reset route with 410', async () => {
    expect(outcome(await svc.api('POST', '/api/reset-settings'))).toEqual({
      status: 410,
      body: { detail: 'Reset settings functionality has been removed.' },
    });
  });
});
