import { ACP_AGENTS } from '../../acp/agent-catalog';
import type { AgentInstalls } from '../../acp/agent-installs';
import { AgentInfo, AgentList, AgentPath, type AgentKind } from '../../../shared/api/agents';
import { DEFAULTS, type SettingsService } from '../../settings/settings-service';
import { defineRoute, type RouteSpec } from '../../http/routes';
import { httpError } from '../../http/errors';

const DOCKHAND_AGENT: Omit<AgentInfo, 'install'> = {
  kind: 'dockhand',
  label: 'Dockhand',
  package: null,
  version: null,
  wire_api: 'dockhand',
  needs: 'Any configured model (built in).',
};

/** The agents a conversation can run, their installs, and an install on request. */
export function agentRoutes(settings: SettingsService, installs: AgentInstalls): RouteSpec[] {
  const list = async (): Promise<AgentList> => ({
    default_agent: settings.stored()?.default_agent ?? DEFAULTS.default_agent,
    agents: [
      { ...DOCKHAND_AGENT, install: builtIn() },
      ...(await Promise.all(
        ACP_AGENTS.map(async (spec) => ({
          kind: spec.kind,
          label: spec.label,
          package: spec.packageName,
          version: spec.version,
          wire_api: spec.wireApi,
          needs: spec.needs,
          install: await installs.status(spec.kind),
        })),
      )),
    ],
  });
  return [
    defineRoute({
      method: 'get',
      path: '/api/agents',
      tag: 'agents',
      summary: 'The agents a conversation can run (Dockhand extension), with each install’s state',
      responses: { 200: { description: 'The default agent and every agent', schema: AgentList } },
      handler: list,
    }),
    defineRoute({
      method: 'post',
      path: '/api/agents/:kind/install',
      tag: 'agents',
      summary:
        'Installs an agent’s pinned package from the npm registry (Dockhand extension); progress in GET /api/agents',
      params: AgentPath,
      status: 202,
      responses: {
        202: { description: 'The install runs (or the agent was installed already)', schema: AgentInfo },
        422: { description: 'The built-in agent needs no install' },
      },
      handler: async ({ params }) => {
        const kind: AgentKind = params.kind;
        if (kind === 'dockhand') throw httpError(422, 'The built-in agent needs no install');
        // The outcome is read from GET /api/agents; a failure is kept there with its reason.
        installs.ensure(kind).catch(() => undefined);
        return (await list()).agents.find((agent) => agent.kind === kind);
      },
    }),
  ];
}

function builtIn(): AgentInfo['install'] {
  return { state: 'installed', progress: null, error: null, size_bytes: null, install_seconds: null };
}
