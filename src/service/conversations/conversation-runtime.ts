import path from 'node:path';
import { rm } from 'node:fs/promises';
import type Docker from 'dockerode';
import { AgentLoop, type AgentLoopConfig, type StatusUpdate } from '../agent/agent-loop';
import { AgentStateStore, type SavedAgentState } from '../agent/agent-state-store';
import { knowledgeInView, recallKnowledge } from '../agent/microagents/knowledge-recall';
import { loadMicroagents, userMicroagentDirs } from '../agent/microagents/load-microagents';
import { renderWorkspaceContext, type AppPort } from '../agent/microagents/workspace-context';
import { FALLBACK_CONTEXT_WINDOW } from '../agent/condenser/condenser';
import { createLlmClient } from '../agent/llm/llm-client';
import { generateTitle } from '../agent/title';
import { contextWindowOf, supportsVision } from '../agent/llm/model-table';
import type { McpStdioServer } from '../agent/microagents/microagent';
import { llmTimingFromEnv } from '../agent/llm/retry-policy';
import systemPrompt from '../agent/prompts/system-prompt.md?raw';
import { EditHistory } from '../agent/tools/str-replace-editor/edit-history';
import { Editor, type EditorFiles } from '../agent/tools/str-replace-editor/editor';
import { ToolRegistry } from '../agent/tools/registry';
import { TaskList } from '../agent/tools/task-list';
import type { ServiceContext } from '../context';
import type { EventLog } from '../events/event-log';
import { SecretMasker } from '../events/secret-masker';
import { runInContainer } from '../sandbox/files/container-command';
import { DockerSandboxFiles } from '../sandbox/files/docker-files';
import { LocalSandboxFiles } from '../sandbox/files/local-files';
import type { SandboxFiles } from '../sandbox/files/sandbox-files';
import type { SandboxTarget } from '../sandbox/sandbox-provider';
import { DockerShellTransport } from '../sandbox/shell/docker-transport';
import { ProcessShellTransport } from '../sandbox/shell/process-transport';
import { ShellSession, type ShellSessionOptions } from '../sandbox/shell/shell-session';
import { DEFAULTS, gitIdentity } from '../settings/settings-service';
import { cloneRepository, initEmptyWorkspace } from '../git/clone';
import { CloneError } from '../git/clone-errors';
import { dockerGitSandbox, type GitSandbox, processGitSandbox } from '../git/git-sandbox';
import { DEFAULT_HOSTS } from '../git/provider-api';
import { shellQuote } from '../sandbox/shell/shell-input';
import type { GitProvider } from '../../shared/api/settings';
import type { McpToolset } from '../mcp/mcp-toolset';
import { withRequestMcpKeys } from '../mcp/request-mcp-keys';
import type { ConversationRecord } from './conversation-store';
import { GitHookError, installPreCommitHook } from './git-hooks';
import { runSetupScript, setupTimeoutFromEnv } from './setup-script';

/** The runtime status ids of the start pipeline (api-contract §14). */
export const RUNTIME_STATUS = {
  startingRuntime: 'STATUS$STARTING_RUNTIME',
  runtimeStarted: 'STATUS$RUNTIME_STARTED',
  settingUpWorkspace: 'STATUS$SETTING_UP_WORKSPACE',
  settingUpGitHooks: 'STATUS$SETTING_UP_GIT_HOOKS',
  settingUpSkills: 'STATUS$SETTING_UP_SKILLS',
  ready: 'STATUS$READY',
  stopped: 'STATUS$STOPPED',
  error: 'STATUS$ERROR',
} as const;

/** A start step failed: the conversation stops with this status id and message. */
export class StartFailure extends Error {
  constructor(
    readonly statusId: string,
    message: string,
  ) {
    super(message);
  }
}

export interface RuntimeHooks {
  status(update: StatusUpdate): void;
  /** The record changed (runtime status, sandbox); persisted by the owner. */
  update(changes: Partial<ConversationRecord>): void;
}

interface Workspace {
  shell: ShellSession;
  files: SandboxFiles;
  remove(path: string): Promise<unknown>;
  target: SandboxTarget;
  release: () => void;
}

/**
 * One started conversation: its sandbox, shell and agent loop. `start()` runs the start pipeline
 * (sandbox, workspace, agent) and reports each step as a runtime status.
 */
export class ConversationRuntime {
  private workspace: Workspace | null = null;
  private agent: AgentLoop | null = null;
  private readonly closing = new AbortController();
  private titler: ((message: string) => Promise<string | null>) | null = null;
  private readonly agentStates: AgentStateStore;
  /** The agent's state before the service restarted (null for a conversation that never ran). */
  private saved: SavedAgentState | null = null;
  private mcp: McpToolset | null = null;
  private microagentServers: McpStdioServer[] = [];

  constructor(
    private readonly ctx: ServiceContext,
    private readonly events: EventLog,
    private readonly record: ConversationRecord,
    private readonly hooks: RuntimeHooks,
  ) {
    this.agentStates = new AgentStateStore(ctx.db);
  }

  get loop(): AgentLoop | null {
    return this.agent;
  }

  get sandboxId(): string | null {
    return this.workspace?.target.sandboxId ?? null;
  }

  async start(): Promise<void> {
    this.saved = this.agentStates.load(this.record.id);
    this.report(RUNTIME_STATUS.startingRuntime, 'Starting the sandbox...');
    const target = await this.sandbox();
    this.report(RUNTIME_STATUS.runtimeStarted, 'The sandbox is running.');
    this.report(RUNTIME_STATUS.settingUpWorkspace, 'Setting up the workspace...');
    const secretEnv = await this.secretEnvironment();
    this.workspace = await this.openWorkspace(target, secretEnv);
    const repoDir = await this.prepareRepository(this.workspace);
    const setupNote = await this.runRepositorySetup(this.workspace, repoDir);
    this.report(RUNTIME_STATUS.settingUpGitHooks, 'Setting up git hooks...');
    await this.installGitHooks(this.workspace, repoDir);
    this.report(RUNTIME_STATUS.settingUpSkills, 'Loading microagents...');
    const recall = await this.recall(this.workspace, repoDir, setupNote);
    if (this.closing.signal.aborted) return;
    const settings = this.ctx.settings.stored() ?? {};
    const masker = new SecretMasker(this.ctx.secrets.values());
    const model = this.record.llmModel ?? settings.llm_model ?? '';
    const llm = createLlmClient({
      model,
      apiKey: await this.ctx.secrets.get('llm_api_key'),
      baseUrl: settings.llm_base_url || null,
      signal: this.closing.signal,
      timing: llmTimingFromEnv(process.env),
    });
    const tools = new ToolRegistry();
    const mcp = await this.connectMcp(target, tools.names(), model);
    if (this.closing.signal.aborted) return void (await mcp.close());
    this.mcp = mcp;
    for (const tool of mcp.tools) tools.add(tool);
    this.titler = (message) =>
      generateTitle(llm, message, masker).then((generated) => generated?.title ?? null);
    this.agent = new AgentLoop({
      conversationId: this.record.id,
      events: this.events,
      masker,
      llm,
      tools,
      toolContext: {
        shell: this.workspace.shell,
        editor: new Editor(
          withRemove(this.workspace.files, this.workspace.remove),
          new EditHistory(this.ctx.db, this.record.id),
          () => target.workingDir,
        ),
        tasks: new TaskList(path.join(this.ctx.dataDir, 'conversations', this.record.id)),
      },
      secrets: { names: Object.keys(secretEnv), values: this.ctx.secrets.values() },
      config: {
        systemPrompt,
        recall,
        maxIterations: settings.max_iterations ?? DEFAULTS.max_iterations,
        maxBudgetPerTask: settings.max_budget_per_task ?? null,
        version: this.ctx.version,
        condenserEnabled: settings.enable_default_condenser ?? true,
        condenserMaxSize: settings.condenser_max_size ?? null,
        contextWindow: contextWindowOf(model) ?? FALLBACK_CONTEXT_WINDOW,
        confirmationMode: settings.confirmation_mode ?? false,
        securityAnalyzer: settings.security_analyzer ?? (settings.confirmation_mode ? 'rules' : null),
        mcpTools: mcp.nameMap(),
      },
      interrupt: () => {
        this.mcp?.cancelCalls();
        return this.workspace?.shell.interrupt() ?? Promise.resolve();
      },
      onStatus: (update) => this.hooks.status(update),
      saveState: (state) => this.agentStates.save(this.record.id, state),
    });
    this.report(RUNTIME_STATUS.ready, 'The agent is ready.');
  }

  /**
   * Step 11: after a restart the agent goes on from its saved state; else a first start replays
   * `replay_json` or sends the first message. Returns the message the conversation is named after.
   */
  beginAgent(first: boolean): string | null {
    const loop = this.agent;
    if (!loop) return null;
    if (this.saved) {
      loop.resume(this.saved);
      return null;
    }
    const request = this.record.request;
    const message = first ? request.initial_user_msg : null;
    const initial = message ? { content: message, imageUrls: request.image_urls } : null;
    const opening = first ? request.replay?.[0] : undefined;
    if (opening?.kind === 'message' && request.replay) {
      loop.startReplay(request.replay, initial);
      return opening.content;
    }
    loop.start(initial ?? undefined);
    return message;
  }

  /** A title for the conversation from its first message (one model call; a cut message when it fails). */
  async title(message: string): Promise<string | null> {
    return this.titler ? this.titler(message) : null;
  }

  /** Stops the agent and closes the shell; the sandbox stays (it idles and is paused later). */
  async close(): Promise<void> {
    this.closing.abort();
    if (this.agent && !['stopped', 'error', 'finished'].includes(this.agent.state)) await this.agent.stop();
    await this.agent?.settled();
    await this.mcp?.close();
    this.mcp = null;
    await this.workspace?.shell.close().catch(() => undefined);
    this.workspace?.release();
    this.workspace = null;
  }

  private report(statusId: string, message: string): void {
    this.hooks.update({ runtimeStatus: statusId });
    this.hooks.status({ type: 'info', id: statusId, message });
  }

  /** MCP servers (steps 8-9): settings, request and microagent servers, in parallel; failures only warn. */
  private async connectMcp(
    target: SandboxTarget,
    builtinNames: string[],
    model: string,
  ): Promise<McpToolset> {
    this.report(RUNTIME_STATUS.settingUpSkills, 'Connecting MCP servers...');
    const stored = this.record.request.mcp_config;
    // The MCP SDK is loaded when a conversation starts, not when the service does.
    const { connectConversationMcp } = await import('../mcp/conversation-mcp');
    const mcp = await connectConversationMcp({
      settings: await this.ctx.settings.mcpConfig(),
      request: stored ? await withRequestMcpKeys(this.ctx.secrets, this.record.id, stored) : null,
      microagents: this.microagentServers,
      target,
      builtinNames,
      vision: supportsVision(model),
    });
    for (const warning of mcp.warnings)
      this.hooks.status({ type: 'info', id: RUNTIME_STATUS.settingUpSkills, message: warning });
    return mcp;
  }

  /** The conversation's sandbox: its own one started again, or a new one from the default spec. */
  private async sandbox(): Promise<SandboxTarget> {
    const sandboxes = this.ctx.sandboxes;
    let info = this.record.sandboxId ? sandboxes.find(this.record.sandboxId) : null;
    if (info && (info.status === 'MISSING' || info.status === 'ERROR')) {
      this.hooks.status({
        type: 'info',
        id: RUNTIME_STATUS.startingRuntime,
        message: 'Workspace was recreated',
      });
      info = null;
    }
    if (info) info = await sandboxes.ensureRunning(info.id);
    else {
      const spec = this.ctx.sandboxSpecs.default();
      // Getting the image may take minutes (a pull, or a build offline): its progress is the status.
      const stopNotices = this.ctx.sandboxSpecs.onImageNotice(spec, (message) =>
        this.hooks.status({ type: 'info', id: RUNTIME_STATUS.startingRuntime, message }),
      );
      try {
        const created = await sandboxes.create(spec);
        this.hooks.update({ sandboxId: created.id });
        info = await sandboxes.settled(created.id);
      } finally {
        stopNotices();
      }
    }
    if (info.status !== 'RUNNING') {
      throw new StartFailure(
        RUNTIME_STATUS.error,
        `The sandbox could not start: ${info.error ?? info.status}`,
      );
    }
    return sandboxes.target(info.id);
  }

  /** Custom secrets and provider tokens as environment variables of the shell (never written to disk). */
  private async secretEnvironment(): Promise<Record<string, string>> {
    const env = await this.ctx.customSecrets.values();
    for (const provider of ['github', 'gitlab', 'bitbucket', 'enterprise_sso'] as const) {
      const token = await this.ctx.providerTokens.token(provider);
      if (token) env[`${provider.toUpperCase()}_TOKEN`] = token.token;
    }
    return env;
  }

  private async openWorkspace(target: SandboxTarget, secretEnv: Record<string, string>): Promise<Workspace> {
    const { name, email } = gitIdentity(this.ctx.settings.stored());
    const env = {
      ...secretEnv,
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: name,
      GIT_COMMITTER_EMAIL: email,
      APP_PORT_1: String(target.appPorts.WORKER_1),
      APP_PORT_2: String(target.appPorts.WORKER_2),
      CI: '1',
      DEBIAN_FRONTEND: 'noninteractive',
      GIT_TERMINAL_PROMPT: '0',
      PIP_NO_INPUT: '1',
      npm_config_yes: 'true',
      PAGER: 'cat',
    };
    if (target.kind === 'docker') {
      const container = target.docker.getContainer(target.container);
      const files = new DockerSandboxFiles(container, { user: target.user ?? 'root' });
      const shell = new ShellSession(
        new DockerShellTransport(container, {
          user: target.user ?? 'root',
          workingDir: target.workingDir,
          env,
          files,
        }),
        this.shellOptions(),
      );
      await shell.start();
      return {
        shell,
        files,
        remove: (p: string) => removeInContainer(container, p),
        target,
        release: () => undefined,
      };
    }
    const transport = new ProcessShellTransport({
      workingDir: target.workingDir,
      env: { ...process.env, ...target.env, ...env },
    });
    const shell = new ShellSession(transport, this.shellOptions());
    await shell.start();
    const release = target.adopt({
      pause: () => transport.pause(),
      resume: () => transport.resume(),
      kill: () => shell.close(),
    });
    const files = new LocalSandboxFiles();
    return { shell, files, remove: (p) => rm(p, { force: true }), target, release };
  }

  /** A restarted conversation's shell starts where the previous one was (and says so in its first output). */
  private shellOptions(): ShellSessionOptions {
    return this.saved?.workingDir ? { restoredWorkingDir: this.saved.workingDir } : {};
  }

  /**
   * Clones the repository into the workspace with the provider token only in the clone's environment (a
   * credential helper hands it to git); without a repository the working directory becomes a git repository.
   */
  private async prepareRepository(workspace: Workspace): Promise<string> {
    const target = workspace.target;
    const sandbox = this.gitSandbox(target);
    const repository = this.record.selectedRepository;
    if (!repository) {
      await initEmptyWorkspace(sandbox.exec, target.workingDir);
      return target.workingDir;
    }
    const provider = (this.record.gitProvider ?? 'github') as GitProvider;
    const stored = await this.ctx.providerTokens.token(provider);
    const host = stored?.host ?? DEFAULT_HOSTS[provider as keyof typeof DEFAULT_HOSTS];
    this.hooks.status({
      type: 'info',
      id: RUNTIME_STATUS.settingUpWorkspace,
      message: `Cloning ${repository}`,
    });
    try {
      const cloned = await cloneRepository({
        sandbox,
        repository,
        provider,
        host,
        token: stored?.token ?? null,
        branch: this.record.selectedBranch,
        workingDir: target.workingDir,
        scheme: this.ctx.gitScheme,
      });
      this.hooks.update({ selectedBranch: cloned.branch });
      // A restarted shell stays in the directory its predecessor was in.
      if (!this.saved?.workingDir)
        await workspace.shell.execute({ command: `cd ${shellQuote(cloned.directory)}` });
      return cloned.directory;
    } catch (error) {
      if (error instanceof CloneError) throw new StartFailure(error.statusId, error.message);
      throw error;
    }
  }

  private gitSandbox(target: SandboxTarget): GitSandbox {
    return target.kind === 'docker'
      ? dockerGitSandbox(target.docker.getContainer(target.container), target.user ?? 'root')
      : processGitSandbox({
          env: { ...process.env, ...target.env },
          helperDir: path.join(this.ctx.dataDir, 'git-helper'),
        });
  }

  /** `.openhands/setup.sh` as a hidden action; a failure is a warning and a note for the agent. */
  private async runRepositorySetup(workspace: Workspace, repoDir: string): Promise<string | null> {
    const masker = new SecretMasker(this.ctx.secrets.values());
    const outcome = await runSetupScript({
      shell: workspace.shell,
      files: workspace.files,
      repoDir,
      stateDir: path.posix.join(path.posix.dirname(workspace.target.workingDir), '.dockhand'),
      timeoutSeconds: setupTimeoutFromEnv(),
      record: (event) => this.events.append(this.record.id, event, masker),
      report: (message) =>
        this.hooks.status({ type: 'info', id: RUNTIME_STATUS.settingUpWorkspace, message }),
    });
    return outcome.ran ? outcome.note : null;
  }

  /** The `.openhands/pre-commit.sh` hook; a failure only warns. */
  private async installGitHooks(workspace: Workspace, repoDir: string): Promise<void> {
    try {
      await installPreCommitHook(this.gitSandbox(workspace.target).exec, repoDir);
    } catch (error) {
      if (!(error instanceof GitHookError)) throw error;
      this.hooks.status({ type: 'info', id: RUNTIME_STATUS.settingUpGitHooks, message: error.message });
    }
  }

  /** The app ports: where apps listen in the sandbox, and the URL the user opens (the published one if any). */
  private appPorts(target: SandboxTarget): AppPort[] {
    const exposed = this.ctx.sandboxes.find(target.sandboxId)?.exposed_urls ?? [];
    return (['WORKER_1', 'WORKER_2'] as const).map((name) => {
      const port = target.appPorts[name];
      return { port, url: exposed.find((u) => u.name === name)?.url ?? `http://localhost:${port}` };
    });
  }

  /** Microagents of the repository (or workspace), the user's folders and the built-ins; problems are reported, not fatal. */
  private async recall(
    workspace: Workspace,
    repoDir: string,
    setupNote: string | null,
  ): Promise<AgentLoopConfig['recall']> {
    const { microagents, warnings } = await loadMicroagents({
      files: workspace.files,
      repoDir,
      userDirs: userMicroagentDirs(),
    });
    for (const warning of warnings)
      this.hooks.status({ type: 'info', id: RUNTIME_STATUS.settingUpSkills, message: warning });
    this.microagentServers = microagents.flatMap((m) => m.mcpStdioServers);
    const repository = this.record.selectedRepository
      ? { name: this.record.selectedRepository, directory: repoDir, branch: this.record.selectedBranch ?? '' }
      : null;
    const customSecrets = this.ctx.customSecrets.list();
    return {
      workspace: (firstMessage) =>
        renderWorkspaceContext({
          repository,
          microagents,
          workingDir: repoDir,
          appPorts: this.appPorts(workspace.target),
          setupNote,
          now: new Date(),
          customSecrets,
          conversationInstructions: this.record.request.conversation_instructions,
          firstMessage,
        }),
      knowledge: (message, history) => recallKnowledge(message, microagents, knowledgeInView(history)),
    };
  }
}

function withRemove(files: SandboxFiles, remove: (path: string) => Promise<unknown>): EditorFiles {
  return {
    read: (p) => files.read(p),
    write: (p, data, options) => files.write(p, data, options),
    stat: (p) => files.stat(p),
    list: (p) => files.list(p),
    remove: async (p) => void (await remove(p)),
  };
}

async function removeInContainer(container: Docker.Container, file: string): Promise<void> {
  const result = await runInContainer(container, ['rm', '-f', '--', file]);
  if (result.exitCode !== 0) throw new Error(`Could not remove ${file}: ${result.stderr.trim()}`);
}
