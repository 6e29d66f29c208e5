import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentList } from '../../src/shared/api/agents';
import { startTestService, type TestService } from '../support/service';

describe('GET /api/agents and POST /api/agents/{kind}/install', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('lists the built-in agent and every ACP agent with its pinned package and install state', async () => {
    const response = await service.api('GET', '/api/agents');
    expect(response.status).toBe(200);
    const list = AgentList.parse(response.json);
    expect(list.default_agent).toBe('dockhand');
    expect(list.agents.map((agent) => agent.kind)).toEqual([
      'dockhand',
      'claude-code',
      'codex',
      'gemini',
      'opencode',
    ]);
    expect(list.agents[0]?.install.state).toBe('installed');
    for (const agent of list.agents.slice(1)) {
      expect(agent.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(agent.install.state).toBe('not_installed');
    }
  });

  it('follows the default agent of the settings', async () => {
    const saved = await service.api('POST', '/api/settings', { body: { default_agent: 'claude-code' } });
    expect(saved.status).toBe(200);
    expect(AgentList.parse((await service.api('GET', '/api/agents')).json).default_agent).toBe('claude-code');
    const refused = await service.api('POST', '/api/settings', { body: { default_agent: 'aider' } });
    expect(refused.status).toBe(422);
  });

  it('refuses to install the built-in agent or an unknown one, and needs the session key', async () => {
    expect((await service.api('POST', '/api/agents/dockhand/install')).status).toBe(422);
    expect((await service.api('POST', '/api/agents/aider/install')).status).toBe(422);
    expect((await service.api('POST', '/api/agents/opencode/install', { key: '' })).status).toBe(401);
    expect((await service.api('GET', '/api/agents', { key: '' })).status).toBe(401);
  });
});
