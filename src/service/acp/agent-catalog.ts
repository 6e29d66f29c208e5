import type { AcpAgentKind, AgentInfo } from '../../shared/api/agents';

/** The model API an agent speaks; the model gateway serves it from the conversation's configured model. */
export type WireApi = Exclude<AgentInfo['wire_api'], 'dockhand'>;

/** How an installed agent is started for ACP on stdio, relative to its install folder. */
export interface AgentLaunch {
  /** `node` runs `entry` with the sandbox's Node; `binary` runs `entry` itself. */
  runtime: 'node' | 'binary';
  /** A path relative to the install folder. */
  entry: string;
  args: string[];
}

/** One coding agent Dockhand can install and drive over the Agent Client Protocol. */
export interface AcpAgentSpec {
  kind: AcpAgentKind;
  label: string;
  /** The npm package, installed at exactly `version`. */
  packageName: string;
  version: string;
  wireApi: WireApi;
  needs: string;
  /** The launch for a Linux machine (`uname -m` as Node names it: x64, arm64). */
  launch(arch: string): AgentLaunch;
}

const nodeEntry = (entry: string, args: string[] = []): AgentLaunch => ({ runtime: 'node', entry, args });

/** Pinned versions: an agent changes only when Dockhand does. */
export const ACP_AGENTS: readonly AcpAgentSpec[] = [
  {
    kind: 'claude-code',
    label: 'Claude Code',
    packageName: '@agentclientprotocol/claude-agent-acp',
    version: '0.101.0',
    wireApi: 'anthropic',
    needs: 'Any configured model: Anthropic directly, any other through the gateway’s translation.',
    launch: () => nodeEntry('node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js'),
  },
  {
    kind: 'codex',
    label: 'Codex',
    packageName: '@agentclientprotocol/codex-acp',
    version: '2.6.0',
    wireApi: 'openai-responses',
    needs: 'An OpenAI model, or any OpenAI-compatible one through the gateway’s translation.',
    launch: () => nodeEntry('node_modules/@agentclientprotocol/codex-acp/dist/index.js'),
  },
  {
    kind: 'gemini',
    label: 'Gemini CLI',
    packageName: '@google/gemini-cli',
    version: '0.61.0',
    wireApi: 'gemini',
    needs: 'A Gemini model, or any OpenAI-compatible one through the gateway’s translation.',
    launch: () => nodeEntry('node_modules/@google/gemini-cli/bundle/gemini.js', ['--acp']),
  },
  {
    kind: 'opencode',
    label: 'opencode',
    packageName: 'opencode-ai',
    version: '1.18.33',
    wireApi: 'openai-chat',
    needs: 'Any OpenAI-compatible model, local ones included.',
    // The package's postinstall only copies this binary to bin/ (install scripts never run); the baseline
    // build runs on every x86-64 CPU, the default one needs AVX2.
    launch: (arch) => ({
      runtime: 'binary',
      entry: `node_modules/opencode-linux-${arch}${arch === 'x64' ? '-baseline' : ''}/bin/opencode`,
      args: ['acp'],
    }),
  },
];

export function acpAgent(kind: AcpAgentKind): AcpAgentSpec {
  const spec = ACP_AGENTS.find((agent) => agent.kind === kind);
  if (!spec) throw new Error(`unknown agent ${kind}`);
  return spec;
}
