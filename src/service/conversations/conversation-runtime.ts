import type { NewEvent, V0Event } from '../../shared/api/events';
import type { AgentLoop, AgentLoopConfig, StatusUpdate } from '../agent/agent-loop';
import { AgentStateStore, type SavedAgentState } from '../agent/agent-state-store';
import { confirmationSettings } from '../agent/confirmation-policy';
import { createAgent, type Agent } from '../agent/create-agent';
import type { AppPort } from '../microagents/workspace-context';
import type { McpStdioServer, Microagent } from '../microagents/microagent';
import { supportsVision } from '../agent/llm/model-table';
import type { EditorFiles } from '../agent/tools/str-replace-editor/editor';
import { BUILTIN_TOOLS } from '../agent/tools/registry';
import type { ServiceContext } from '../context';
import type { EventLog } from '../events/event-log';
import type { FileSurvey } from '../sandbox/files/sandbox-files';
import type { SandboxFiles } from '../sandbox/files/sandbox-files';
import { surveyRoots } from '../sandbox/files/survey-command';
import { SurveyedFiles } from '../sandbox/files/surveyed-files';
import type { SandboxWorkspace } from '../sandbox/sandbox-workspace';
import type { ShellSession, ShellSessionOptions } from '../sandbox/shell/shell-session';
import { gitIdentity, type StoredSettings } from '../settings/settings-service';
import { cloneRepository, initEmptyWorkspace } from '../git/clone';
import { gitIdentityEnv } from '../git/git-identity';
import { copyLocalRepository } from '../local-repository/start-step';
import { isLocalRepository } from '../../shared/api/local-repository';
import { CloneError } from '../git/clone-errors';
import { type CredentialBroker, startCredentialBroker } from '../git/credential-broker';
import type { CredentialTarget } from '../git/credential-helper';
import { configureGitExcludes } from '../git/git-excludes';
import { gitSandbox, type GitSandbox } from '../git/git-sandbox';
import { DEFAULT_HOSTS } from '../git/provider-api';
import { shellQuote } from '../sandbox/shell/shell-input';
import type { GitProvider } from '../../shared/api/settings';
import type { McpToolset } from '../mcp/mcp-toolset';
import { withRequestMcpKeys } from '../mcp/request-mcp-keys';
import type { ConversationRecord } from './conversation-store';
import { gitHookStep, type HookStep } from './hook-step';
import { loadConversationMicroagents, workspaceRecall, type LoadedMicroagents } from './recall-step';
import { RepositoryConsent, type RepositoryCode } from './repository-code';
import { runSetupScript, sandboxStateDir } from './setup-script';
import { startSurveyRoots } from './start-survey';
import { exposedCustomSecrets, sandboxSecretValues } from './sandbox-secrets';

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
  /** The shell's start (begun when the workspace opens; its commands queue behind it). */
  started: Promise<void>;
  files: SandboxFiles;
  remove(path: string): Promise<unknown>;
  target: SandboxWorkspace;
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
  /** Hands the repository's provider token to git in the sandbox (`../git/credential-broker.ts`). */
  private credentialBroker: Promise<CredentialBroker | null> = Promise.resolve(null);
  private repositoryConsent: RepositoryConsent | null = null;
  /** The shell's start, `git init` and the git hooks, running after `start()` has let the agent think. */
  private settingUp: Promise<unknown> = Promise.resolve();

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

  /** The user's say over the repository's code while the start waits for it (null before the workspace). */
  get consent(): RepositoryConsent | null {
    return this.repositoryConsent;
  }

  get sandboxId(): string | null {
    return this.workspace?.target.sandboxId ?? null;
  }

  /**
   * The start pipeline, each step as soon as what it needs is there. Beside the sandbox's start: the
   * secrets and the model key. Once it runs: the repository (a clone is awaited, as its microagents and setup
   * script are read next), then the setup script and the microagents side by side, then MCP. The agent may
   * think from there; the shell, an empty workspace's `git init` and the git hooks come up meanwhile
   * (`workspaceReady()`), and its commands wait for them in the shell's queue.
   */
  async start(): Promise<void> {
    this.saved = this.agentStates.load(this.record.id);
    this.report(RUNTIME_STATUS.startingRuntime, 'Starting the sandbox...');
    const mcpModule = settledLater(import('../mcp/conversation-mcp'));
    const [{ target, readAhead }, secretEnv, apiKey] = await Promise.all([
      this.sandbox(),
      sandboxSecretValues(this.ctx, this.record.request),
      this.ctx.secrets.get('llm_api_key'),
    ]);
    this.report(RUNTIME_STATUS.runtimeStarted, 'The sandbox is running.');
    this.report(RUNTIME_STATUS.settingUpWorkspace, 'Setting up the workspace...');
    const workspace = this.openWorkspace(target, secretEnv);
    this.workspace = workspace;
    this.repositoryConsent = this.consentFor(target);
    const repository = await this.prepareRepository(workspace);
    const files = await this.startFiles(workspace, repository.dir, readAhead);
    const setup = this.runRepositorySetup(workspace, files, repository.dir);
    this.report(RUNTIME_STATUS.settingUpGitHooks, 'Setting up git hooks...');
    // Hooks follow the setup script, as before; the agent's commands wait for them. The user is asked about
    // the hook before the agent starts, so every question about repository code comes first.
    const hooks = this.gitHooks(workspace, files, repository.dir, setup);
    this.settingUp = settledLater(Promise.all([workspace.started, repository.initialized, hooks.installed]));
    this.report(RUNTIME_STATUS.settingUpSkills, 'Loading microagents...');
    const [setupNote, { microagents, servers }] = await Promise.all([
      setup,
      this.loadMicroagents(files, repository.dir),
      hooks.approved,
    ]);
    workspace.shell.hold(hooks.installed);
    const recall = this.recall(workspace, repository.dir, microagents, setupNote);
    if (this.closing.signal.aborted) return;
    const settings = this.ctx.settings.stored() ?? {};
    const model = this.record.llmModel ?? settings.llm_model ?? '';
    const mcp = await this.connectMcp(await mcpModule, target, servers, model);
    if (this.closing.signal.aborted) return void (await mcp.close());
    this.mcp = mcp;
    const agent = this.buildAgent({ workspace, secretEnv, apiKey, settings, model, recall, mcp });
    this.agent = agent.loop;
    this.titler = agent.title;
    this.report(RUNTIME_STATUS.ready, 'The agent is ready.');
  }

  /**
   * The rest of the start, which the agent's commands (not its thinking) need: the shell, an empty
   * workspace's `git init`, the git hooks. Rejects like `start()` when one of them fails.
   */
  async workspaceReady(): Promise<void> {
    await this.settingUp;
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
    await (await this.credentialBroker)?.close().catch(() => undefined);
    this.credentialBroker = Promise.resolve(null);
    await this.workspace?.shell.close().catch(() => undefined);
    // The set-up still running (the shell's start, `git init`, the hooks) ends before the sandbox may be
    // paused: an exec that starts in a container being frozen can hang the engine's hold on it.
    await this.settingUp.catch(() => undefined);
    this.workspace?.release();
    this.workspace = null;
  }

  private report(statusId: string, message: string): void {
    this.hooks.update({ runtimeStatus: statusId });
    this.hooks.status({ type: 'info', id: statusId, message });
  }

  /** The last start step: the agent, on the workspace, with what it recalls and the MCP tools. */
  private buildAgent(inputs: {
    workspace: Workspace;
    secretEnv: Record<string, string>;
    apiKey: string | null;
    settings: StoredSettings;
    model: string;
    recall: AgentLoopConfig['recall'];
    mcp: McpToolset;
  }): Agent {
    const { workspace, mcp } = inputs;
    return createAgent(this.ctx, {
      conversationId: this.record.id,
      events: this.events,
      settings: inputs.settings,
      model: inputs.model,
      apiKey: inputs.apiKey,
      signal: this.closing.signal,
      workspace: {
        shell: workspace.shell,
        files: withRemove(workspace.files, workspace.remove),
        workingDir: () => workspace.target.workingDir,
      },
      secretNames: Object.keys(inputs.secretEnv),
      recall: inputs.recall,
      mcp,
      interrupt: () => {
        this.mcp?.cancelCalls();
        return this.workspace?.shell.interrupt() ?? Promise.resolve();
      },
      onStatus: (update) => this.hooks.status(update),
      saveState: (state) => this.agentStates.save(this.record.id, state),
    });
  }

  /** MCP servers (steps 8-9): settings, request and microagent servers, in parallel; failures only warn. */
  private async connectMcp(
    { connectConversationMcp }: typeof import('../mcp/conversation-mcp'),
    target: SandboxWorkspace,
    microagentServers: McpStdioServer[],
    model: string,
  ): Promise<McpToolset> {
    this.report(RUNTIME_STATUS.settingUpSkills, 'Connecting MCP servers...');
    const stored = this.record.request.mcp_config;
    const mcp = await connectConversationMcp({
      settings: await this.ctx.settings.mcpConfig(),
      request: stored ? await withRequestMcpKeys(this.ctx.secrets, this.record.id, stored) : null,
      microagents: microagentServers,
      workspace: target,
      builtinNames: BUILTIN_TOOLS.map((tool) => tool.name),
      vision: supportsVision(model),
      callTimeoutSeconds: this.ctx.limits.mcpCallTimeoutSeconds,
    });
    for (const warning of mcp.warnings)
      this.hooks.status({ type: 'info', id: RUNTIME_STATUS.settingUpSkills, message: warning });
    return mcp;
  }

  /**
   * The conversation's sandbox: its own one started again, or a new one from the default spec; with what its
   * first probe read ahead of the workspace, if anything.
   */
  private async sandbox(): Promise<{ target: SandboxWorkspace; readAhead: FileSurvey | null }> {
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
    const readAhead = sandboxes.takeReadAhead(info.id);
    return { target: await sandboxes.workspace(info.id), readAhead };
  }

  /**
   * The workspace's files for the start steps, answered from one survey of what they read: the one the
   * sandbox's first probe took when it covers the same folders, else one taken now.
   */
  private async startFiles(
    workspace: Workspace,
    repoDir: string,
    readAhead: FileSurvey | null,
  ): Promise<SurveyedFiles> {
    const roots = surveyRoots(startSurveyRoots(repoDir, workspace.target.workingDir));
    const survey =
      readAhead && JSON.stringify(readAhead.roots) === JSON.stringify(roots)
        ? readAhead
        : await workspace.files.survey(roots).catch(() => null);
    return new SurveyedFiles(workspace.files, survey);
  }

  /** The shell (starting in the background) and the file access of the sandbox. */
  private openWorkspace(target: SandboxWorkspace, secretEnv: Record<string, string>): Workspace {
    const env = {
      ...secretEnv,
      ...gitIdentityEnv(gitIdentity(this.ctx.settings.stored())),
      APP_PORT_1: String(target.appPorts.WORKER_1),
      APP_PORT_2: String(target.appPorts.WORKER_2),
      CI: '1',
      DEBIAN_FRONTEND: 'noninteractive',
      GIT_TERMINAL_PROMPT: '0',
      PIP_NO_INPUT: '1',
      npm_config_yes: 'true',
      PAGER: 'cat',
    };
    const shell = target.shell({ env, ...this.shellOptions() });
    return {
      shell,
      started: settledLater(shell.start()),
      files: target.files,
      remove: (p: string) => removeInSandbox(target, p),
      target,
      release: () => target.release(),
    };
  }

  /** A restarted conversation's shell starts where the previous one was (and says so in its first output). */
  private shellOptions(): ShellSessionOptions {
    return this.saved?.workingDir ? { restoredWorkingDir: this.saved.workingDir } : {};
  }

  /**
   * Clones the repository into the workspace with the provider token only in the clone's environment (a
   * credential helper hands it to git); later git commands get it from the credential broker, for the
   * repository's host only. Without a repository the working directory becomes a git repository,
   * in the background: nothing but the agent's commands needs it, and the shell holds them until then.
   */
  private async prepareRepository(
    workspace: Workspace,
  ): Promise<{ dir: string; initialized: Promise<void> }> {
    const target = workspace.target;
    const sandbox = gitSandbox(target);
    const repository = this.record.selectedRepository;
    // Before anything is listed as a change: interpreter caches are never the agent's work.
    await configureGitExcludes(sandbox).catch((error: unknown) =>
      this.ctx.logger.warn({ conversation_id: this.record.id, err: error }, 'sandbox git excludes not set'),
    );
    if (!repository) {
      const initialized = settledLater(initEmptyWorkspace(sandbox.exec, target.workingDir));
      workspace.shell.hold(initialized);
      return { dir: target.workingDir, initialized };
    }
    if (isLocalRepository(repository)) return this.copyLocalRepository(workspace, sandbox, repository);
    const provider = (this.record.gitProvider ?? 'github') as GitProvider;
    const stored = await this.ctx.providerTokens.token(provider);
    const host = stored?.host ?? DEFAULT_HOSTS[provider as keyof typeof DEFAULT_HOSTS];
    // Beside the clone, which has the token in its own environment; later git commands need the broker.
    if (stored)
      this.credentialBroker = this.startCredentialBroker(target, {
        provider,
        host,
        scheme: this.ctx.gitScheme,
      });
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
        void workspace.shell
          .execute({ command: `cd ${shellQuote(cloned.directory)}` })
          .catch(() => undefined);
      return { dir: cloned.directory, initialized: Promise.resolve() };
    } catch (error) {
      if (error instanceof CloneError) throw new StartFailure(error.statusId, error.message);
      throw error;
    }
  }

  /**
   * The sandbox's credential broker, for the repository's provider and host. Without it (no python3 in the
   * sandbox) the clone still works, but later git commands in the shell get no token.
   */
  private async startCredentialBroker(
    target: SandboxWorkspace,
    credentials: CredentialTarget,
  ): Promise<CredentialBroker | null> {
    const conversationId = this.record.id;
    const { logger, providerTokens } = this.ctx;
    try {
      return await startCredentialBroker({
        workspace: target,
        target: credentials,
        token: async () => (await providerTokens.token(credentials.provider))?.token ?? null,
        log: (request) =>
          logger.info({ conversation_id: conversationId, ...request }, 'git credential request'),
      });
    } catch (error) {
      logger.warn(
        { conversation_id: conversationId, err: error instanceof Error ? error.message : String(error) },
        'git credential broker not started',
      );
      return null;
    }
  }

  /** A repository on this machine: copied into the workspace, its state the review's baseline. */
  private async copyLocalRepository(
    workspace: Workspace,
    sandbox: GitSandbox,
    repository: string,
  ): Promise<{ dir: string; initialized: Promise<void> }> {
    const directory = await copyLocalRepository({
      conversationId: this.record.id,
      dataDir: this.ctx.dataDir,
      repository,
      branch: this.record.selectedBranch,
      sandbox,
      files: workspace.files,
      workingDir: workspace.target.workingDir,
      identity: gitIdentityEnv(gitIdentity(this.ctx.settings.stored())),
      report: (message) =>
        this.hooks.status({ type: 'info', id: RUNTIME_STATUS.settingUpWorkspace, message }),
    }).catch((error: unknown) => {
      throw new StartFailure(RUNTIME_STATUS.error, (error as Error).message);
    });
    if (!this.saved?.workingDir) await workspace.shell.execute({ command: `cd ${shellQuote(directory)}` });
    return { dir: directory, initialized: Promise.resolve() };
  }

  /** `.openhands/setup.sh` as a hidden action; a failure is a warning and a note for the agent. */
  private async runRepositorySetup(
    workspace: Workspace,
    files: SurveyedFiles,
    repoDir: string,
  ): Promise<string | null> {
    const outcome = await runSetupScript({
      shell: workspace.shell,
      files,
      repoDir,
      stateDir: sandboxStateDir(workspace.target.workingDir),
      timeoutSeconds: this.ctx.limits.setupTimeoutSeconds,
      record: (event) => this.appendEvent(event),
      approve: (code) => this.approve(code),
      report: (message) =>
        this.hooks.status({ type: 'info', id: RUNTIME_STATUS.settingUpWorkspace, message }),
    });
    // The script may have changed any file: the steps after it read the sandbox itself.
    if (outcome.ran) files.forget();
    return outcome.ran ? outcome.note : null;
  }

  /** Step 7: the `.openhands/pre-commit.sh` hook once the setup script is done; a failure only warns. */
  private gitHooks(
    workspace: Workspace,
    files: SandboxFiles,
    repoDir: string,
    setup: Promise<unknown>,
  ): HookStep {
    return gitHookStep(setup, {
      exec: gitSandbox(workspace.target).exec,
      files,
      repoDir,
      approve: (code) => this.approve(code),
      record: (event) => this.appendEvent(event),
      warn: (message) => this.hooks.status({ type: 'info', id: RUNTIME_STATUS.settingUpGitHooks, message }),
    });
  }

  /** The microagents, and their MCP servers the user lets start; problems are reported, not fatal. */
  private loadMicroagents(files: SandboxFiles, repoDir: string): Promise<LoadedMicroagents> {
    return loadConversationMicroagents({
      files,
      repoDir,
      approve: (code) => this.approve(code),
      record: (event) => this.appendEvent(event),
      warn: (message) => this.hooks.status({ type: 'info', id: RUNTIME_STATUS.settingUpSkills, message }),
    });
  }

  /** What the agent recalls: the workspace context of its first message, and knowledge on keywords. */
  private recall(
    workspace: Workspace,
    repoDir: string,
    microagents: Microagent[],
    setupNote: string | null,
  ): AgentLoopConfig['recall'] {
    const { selectedRepository, selectedBranch, request } = this.record;
    return workspaceRecall({
      repository: selectedRepository ? { name: selectedRepository, branch: selectedBranch } : null,
      repoDir,
      microagents,
      setupNote,
      customSecrets: exposedCustomSecrets(this.ctx, request),
      conversationInstructions: request.conversation_instructions,
      appPorts: () => this.appPorts(workspace.target),
      now: () => new Date(),
    });
  }

  private consentFor(target: SandboxWorkspace): RepositoryConsent {
    return new RepositoryConsent({
      record: (event) => this.appendEvent(event),
      settings: confirmationSettings(this.ctx.settings.stored() ?? {}),
      isolated: target.isolated,
      signal: this.closing.signal,
      report: (message) =>
        this.hooks.status({ type: 'info', id: RUNTIME_STATUS.settingUpWorkspace, message }),
    });
  }

  private approve(code: RepositoryCode): Promise<number | null> {
    return (this.repositoryConsent as RepositoryConsent).approve(code);
  }

  private appendEvent(event: NewEvent): V0Event {
    return this.events.append(this.record.id, event, this.ctx.masker);
  }

  /** The app ports: where apps listen in the sandbox, and the URL the user opens (the published one if any). */
  private appPorts(target: SandboxWorkspace): AppPort[] {
    const exposed = this.ctx.sandboxes.find(target.sandboxId)?.exposed_urls ?? [];
    return (['WORKER_1', 'WORKER_2'] as const).map((name) => {
      const port = target.appPorts[name];
      return { port, url: exposed.find((u) => u.name === name)?.url ?? `http://localhost:${port}` };
    });
  }
}

/**
 * The same promise, marked as handled now: a step that fails before anyone awaits it must not end the
 * process as an unhandled rejection; whoever awaits it still gets the error.
 */
function settledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

function withRemove(files: SandboxFiles, remove: (path: string) => Promise<unknown>): EditorFiles {
  return {
    read: (p, options) => files.read(p, options),
    write: (p, data, options) => files.write(p, data, options),
    stat: (p) => files.stat(p),
    list: (p) => files.list(p),
    remove: async (p) => void (await remove(p)),
  };
}

async function removeInSandbox(workspace: SandboxWorkspace, file: string): Promise<void> {
  const result = await workspace.exec(['rm', '-f', '--', file], { user: 'root' });
  if (result.exitCode !== 0) throw new Error(`Could not remove ${file}: ${result.stderr.trim()}`);
}
