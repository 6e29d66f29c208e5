import path from 'node:path';
import type { AcpAgentSpec } from './agent-catalog';
import type { LentAgent } from './agent-lending';
import type { ModelEndpoint } from './acp-host';
import type { SandboxWorkspace, StdioCommand } from '../sandbox/sandbox-workspace';

/** The variable the placeholder token is in, for agents whose config names one. */
const TOKEN_VARIABLE = 'DOCKHAND_MODEL_TOKEN';
const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** What an agent is configured with: its model at the gateway, and the placeholder token. */
export interface ModelAccess {
  endpoint: ModelEndpoint;
  /** The conversation's model, as the agent names it (without Dockhand's `provider/` prefix). */
  model: string;
}

/** A file the agent reads its configuration from, under its HOME. */
interface ConfigFile {
  path: string;
  content: string;
}

interface AgentSetup {
  env: Record<string, string>;
  files: ConfigFile[];
}

/**
 * The session mode each agent runs in: the one where it asks before it changes anything, so that Dockhand's
 * confirmation mode decides (Claude Code starts some models in `auto`, where it decides itself); for Codex
 * full access, as its own sandbox cannot work in a container (its per-turn mode would otherwise put the
 * commands in that sandbox whatever `config.toml` says).
 */
const SESSION_MODES: Record<AcpAgentSpec['kind'], string | null> = {
  'claude-code': 'default',
  codex: 'agent-full-access',
  gemini: 'default',
  opencode: null,
};

export function sessionModeOf(spec: AcpAgentSpec): string | null {
  return SESSION_MODES[spec.kind];
}

/** The model name an agent sends: Dockhand's `provider/model` without the provider. */
export function agentModelName(model: string): string {
  const slash = model.indexOf('/');
  return slash > 0 ? model.slice(slash + 1) : model;
}

function toml(value: string): string {
  return JSON.stringify(value);
}

/** Each agent's model traffic pointed at the gateway, with the placeholder token; no telemetry, no updates. */
function setupOf(spec: AcpAgentSpec, home: string, { endpoint, model }: ModelAccess): AgentSetup {
  switch (spec.kind) {
    case 'claude-code':
      return {
        env: {
          ANTHROPIC_BASE_URL: endpoint.anthropicBaseUrl,
          ANTHROPIC_API_KEY: endpoint.token,
          ANTHROPIC_MODEL: model,
          ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
          ANTHROPIC_SMALL_FAST_MODEL: model,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_TELEMETRY: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_ERROR_REPORTING: '1',
        },
        files: [],
      };
    case 'codex':
      // Codex's own sandbox (bubblewrap, seatbelt) cannot work in a container: the container is the boundary.
      return {
        env: { CODEX_HOME: `${home}/.codex`, [TOKEN_VARIABLE]: endpoint.token },
        files: [
          {
            path: `${home}/.codex/config.toml`,
            content: [
              `model = ${toml(model)}`,
              'model_provider = "dockhand"',
              'sandbox_mode = "danger-full-access"',
              'check_for_update_on_startup = false',
              '',
              '[model_providers.dockhand]',
              'name = "Dockhand"',
              `base_url = ${toml(endpoint.openaiBaseUrl)}`,
              `env_key = ${toml(TOKEN_VARIABLE)}`,
              'wire_api = "responses"',
              '',
            ].join('\n'),
          },
        ],
      };
    case 'gemini':
      return {
        env: {
          GOOGLE_GEMINI_BASE_URL: endpoint.geminiBaseUrl,
          GEMINI_API_KEY: endpoint.token,
          GEMINI_MODEL: model,
          GEMINI_CLI_NO_RELAUNCH: 'true',
        },
        files: [
          {
            path: `${home}/.gemini/settings.json`,
            content: JSON.stringify({
              security: { auth: { selectedType: 'gemini-api-key' } },
              general: { disableAutoUpdate: true, disableUpdateNag: true },
              privacy: { usageStatisticsEnabled: false },
              telemetry: { enabled: false },
            }),
          },
        ],
      };
    case 'opencode':
      return {
        env: { [TOKEN_VARIABLE]: endpoint.token, OPENCODE_DISABLE_AUTOUPDATE: 'true' },
        files: [
          {
            path: `${home}/.config/opencode/opencode.json`,
            content: JSON.stringify({
              $schema: 'https://opencode.ai/config.json',
              autoupdate: false,
              share: 'disabled',
              provider: {
                dockhand: {
                  npm: '@ai-sdk/openai-compatible',
                  name: 'Dockhand',
                  options: { baseURL: endpoint.openaiBaseUrl, apiKey: `{env:${TOKEN_VARIABLE}}` },
                  models: { [model]: { name: model } },
                },
              },
              model: `dockhand/${model}`,
              small_model: `dockhand/${model}`,
              // Every change asks: Dockhand answers itself when confirmation mode is off.
              permission: { edit: 'ask', bash: 'ask', webfetch: 'ask' },
            }),
          },
        ],
      };
  }
}

/**
 * The agent's HOME: a folder of its own in the sandbox, outside the workspace (so nothing of it shows in
 * the workspace's changes or export), kept while the sandbox lives so a restarted agent finds its session.
 */
function homeOf(workspace: SandboxWorkspace, conversationId: string): string {
  return workspace.isolated
    ? `/tmp/dockhand-agent/${conversationId}`
    : path.join(path.dirname(workspace.workspaceDir), 'agent-homes', conversationId);
}

/**
 * Writes the agent's configuration into its HOME in the sandbox and answers the command that starts it
 * there for ACP on stdio: Dockhand's Node (or the agent's own binary), an explicit HOME and PATH, and its
 * model at the gateway with the placeholder token.
 */
export async function prepareLaunch(
  workspace: SandboxWorkspace,
  spec: AcpAgentSpec,
  lent: LentAgent,
  access: ModelAccess,
  conversationId: string,
): Promise<StdioCommand> {
  const home = homeOf(workspace, conversationId);
  const made = await workspace.exec(['mkdir', '-p', '--', home]);
  if (made.exitCode !== 0) throw new Error(`Could not make the agent's home ${home}: ${made.stderr.trim()}`);
  const setup = setupOf(spec, home, access);
  for (const file of setup.files) await workspace.files.write(file.path, file.content);
  const launch = spec.launch(await machineArch(workspace));
  const entry = `${lent.dir}/${launch.entry}`;
  const runtime = launch.runtime === 'node';
  return {
    name: spec.label,
    command: runtime ? lent.node : entry,
    args: runtime ? [entry, ...launch.args] : launch.args,
    env: {
      HOME: home,
      PATH: `${path.posix.dirname(lent.node)}:${SYSTEM_PATH}`,
      ...setup.env,
    },
  };
}

/** The sandbox's machine as Node names it (`x64`, `arm64`): which of an agent's binaries runs there. */
async function machineArch(workspace: SandboxWorkspace): Promise<string> {
  const machine = (await workspace.exec(['uname', '-m'])).stdout.trim();
  return machine === 'aarch64' || machine === 'arm64' ? 'arm64' : 'x64';
}
