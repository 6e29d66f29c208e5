import { describe, expect, it } from 'vitest';
import type { NewEvent } from '../../shared/api/events';
import type { EventLog } from '../events/event-log';
import type { SecretMasker } from '../events/secret-masker';
import type { EgressDecision } from '../sandbox/link/egress-gate';
import type { EgressListener, EgressService } from '../sandbox/link/egress-service';
import type { StoredSettings } from '../settings/settings-service';
import { ConversationEgress } from './conversation-egress';
import type { ConversationRecord, ConversationStore } from './conversation-store';

function setup(settings: StoredSettings, records: Partial<ConversationRecord>[]) {
  let listener: EgressListener = () => undefined;
  const appended: { id: string; event: NewEvent }[] = [];
  const reconsidered: string[] = [];
  const always: string[] = [];
  const egress = {
    onDecision: (next: EgressListener) => {
      listener = next;
      return () => undefined;
    },
    reconsider: (id: string) => reconsidered.push(id),
    sandboxes: () => ['sbx-held'],
    log: () => [],
  } as unknown as EgressService;
  const full = records.map((record) => ({ request: {}, llmModel: null, sandboxId: 'sbx-1', ...record }));
  const store = {
    bySandbox: (sandboxId: string) => full.filter((r) => r.sandboxId === sandboxId).map((r) => r.id),
    get: (id: string) => full.find((r) => r.id === id) ?? null,
  } as unknown as ConversationStore;
  const events = {
    append: (id: string, event: NewEvent) => appended.push({ id, event }),
  } as unknown as EventLog;
  const conversations = new ConversationEgress({
    egress,
    store,
    events,
    masker: {} as SecretMasker,
    settings: () => settings,
    gitHosts: () => ({ github: null, gitlab: 'git.corp.example' }),
    allowAlways: (entry) => always.push(entry),
  });
  conversations.start();
  const refuse = (host: string, port = 443): EgressDecision => ({
    host,
    port,
    allowed: false,
    rule: 'preset balanced',
    address: null,
    at: new Date().toISOString(),
  });
  return {
    conversations,
    appended,
    reconsidered,
    always,
    decide: (d: EgressDecision) => listener('sbx-1', d),
    refuse,
  };
}

describe('ConversationEgress', () => {
  it("builds the sandbox's policy from its conversation, the settings and the configured hosts", () => {
    const { conversations } = setup(
      {
        egress_policy: 'open',
        egress_allow: ['*.corp.example'],
        egress_deny: ['evil.example'],
        llm_model: 'anthropic/claude-sonnet-4-5',
        llm_base_url: 'http://models.local:11434/v1',
        mcp_config: {
          sse_servers: [{ url: 'https://mcp.example/sse' }],
          stdio_servers: [],
          shttp_servers: [],
        },
      },
      [{ id: 'c1', request: { network_policy: 'model_only' } as never }],
    );
    conversations.allow('c1', 'extra.example:8080', 'conversation');
    expect(conversations.policy('sbx-1')).toEqual({
      preset: 'model_only',
      allow: ['*.corp.example', 'extra.example:8080'],
      deny: ['evil.example'],
      modelHosts: ['models.local', 'api.anthropic.com'],
      serviceHosts: [
        'github.com',
        'api.github.com',
        'codeload.github.com',
        '*.githubusercontent.com',
        'git.corp.example',
        'mcp.example',
      ],
    });
    // Without a conversation policy, the setting's.
    expect(setup({ egress_policy: 'offline' }, [{ id: 'c2' }]).conversations.policy('sbx-1').preset).toBe(
      'offline',
    );
    expect(setup({}, []).conversations.policy('sbx-1').preset).toBe('balanced');
  });

  it('tells a refusal once per destination, and at most 30 a minute', () => {
    const { appended, decide, refuse } = setup({}, [{ id: 'c1' }]);
    decide(refuse('a.example'));
    decide(refuse('a.example'));
    expect(appended).toHaveLength(1);
    expect(appended[0]?.event.extras).toMatchObject({
      error_id: 'EGRESS_REFUSED',
      egress: { host: 'a.example', port: 443, rule: 'preset balanced', held: false },
    });
    for (let index = 0; index < 100; index++) decide(refuse(`n${index}.example`));
    expect(appended).toHaveLength(30);
    decide({ ...refuse('ok.example'), allowed: true });
    expect(appended).toHaveLength(30);
  });

  it('lets held connections be decided again when something is allowed', () => {
    const { conversations, reconsidered, always } = setup({}, [{ id: 'c1' }]);
    conversations.allow('c1', 'x.example', 'conversation');
    conversations.allow('c1', 'y.example', 'always');
    expect(always).toEqual(['y.example']);
    expect(reconsidered).toEqual(['sbx-1', 'sbx-held']);
  });
});
