import { createAgent, type Agent } from '../../src/service/agent/create-agent';
import { createLlmClient } from '../../src/service/agent/llm/llm-client';
import { EditHistory } from '../../src/service/agent/tools/str-replace-editor/edit-history';
import type { ModelProbes } from '../../src/service/agent/llm/model-probes';
import type { LlmTiming } from '../../src/service/agent/llm/retry-policy';
import type { StatusUpdate } from '../../src/service/agent/agent-loop';
import type { EventLog } from '../../src/service/events/event-log';
import { SecretMasker } from '../../src/service/events/secret-masker';
import { LocalSandboxFiles } from '../../src/service/sandbox/files/local-files';
import { ProcessShellTransport } from '../../src/service/sandbox/shell/process-transport';
import { ShellSession } from '../../src/service/sandbox/shell/shell-session';
import { MemorySecretStore } from '../../src/service/secrets/memory-store';
import type { SettingsService } from '../../src/service/settings/settings-service';
import type { Db } from '../../src/service/storage/database';
import type { SettingsUpdate } from '../../src/shared/api/settings';

export interface ProcessAgentOptions {
  db: Db;
  events: EventLog;
  /** The data folder, also the shell's working directory. */
  root: string;
  conversationId: string;
  model: string;
  settings: SettingsUpdate;
  llmTiming?: Partial<LlmTiming>;
  /** The service's model probes; none: the model client as for any provider. */
  probes?: ModelProbes | null;
  onStatus?: (update: StatusUpdate) => void;
}

/**
 * A conversation's agent as the service builds it (`createAgent` with the real model client), on a process
 * shell in `root`, with no secrets, MCP tools or recall beyond a fixed workspace note.
 */
export function processAgent(options: ProcessAgentOptions): Agent {
  const { root } = options;
  return createAgent(
    {
      editHistory: (conversationId) => new EditHistory(options.db, conversationId),
      dataDir: root,
      version: 'test',
      masker: new SecretMasker([]),
      secrets: new MemorySecretStore(),
      limits: {
        idleSeconds: 0,
        setupTimeoutSeconds: 600,
        mcpCallTimeoutSeconds: null,
        llmTiming: options.llmTiming ?? {},
      },
      llmFactory: createLlmClient,
      ...(options.probes ? { settings: { modelProbes: options.probes } as unknown as SettingsService } : {}),
    },
    {
      conversationId: options.conversationId,
      events: options.events,
      settings: options.settings,
      model: options.model,
      apiKey: null,
      signal: new AbortController().signal,
      workspace: {
        shell: new ShellSession(new ProcessShellTransport({ workingDir: root, env: {}, stateDir: root })),
        files: Object.assign(new LocalSandboxFiles(), { remove: async () => undefined }),
        workingDir: () => root,
      },
      secretNames: [],
      recall: { workspace: () => ({ content: 'context', extras: {} }), knowledge: () => null },
      mcp: { tools: [], nameMap: () => ({}) },
      interrupt: async () => undefined,
      onStatus: options.onStatus ?? (() => undefined),
      saveState: () => undefined,
    },
  );
}
