import type { LentAgent } from '../acp/agent-lending';
import { confirmationSettings } from '../agent/confirmation-policy';
import type { CredentialBroker } from '../git/credential-broker';
import { gitSandbox } from '../git/git-sandbox';
import type { McpToolset } from '../mcp/mcp-toolset';
import { SurveyedFiles } from '../sandbox/files/surveyed-files';
import { buildAcpAgent, installAcpAgent, runsAcpAgent } from './acp-agent-step';
import { buildAgent, connectMcp, recallOf, type StartedAgent } from './agent-step';
import { gitHookStep, type HookStep } from './hook-step';
import { loadConversationMicroagents, type LoadedMicroagents } from './recall-step';
import { RepositoryConsent } from './repository-code';
import {
  credentialBroker,
  gitCredentials,
  prepareRepository,
  type GitCredentials,
  type PreparedRepository,
} from './repository-step';
import { openWorkspace, startSandbox, type StartedSandbox, type Workspace } from './sandbox-step';
import { sandboxSecretValues } from './sandbox-secrets';
import { runSetupScript, sandboxStateDir } from './setup-script';
import type { StartContext } from './start-context';
import { settledLater, type StartPlan, stepOf } from './start-runner';
import { startSurveyRoots } from './start-survey';

/** What each step of a conversation's start makes. */
export interface StartResults {
  sandbox: StartedSandbox;
  secretEnv: Record<string, string>;
  apiKey: string | null;
  credentials: GitCredentials | null;
  broker: CredentialBroker | null;
  mcpModule: typeof import('../mcp/conversation-mcp');
  workspace: Workspace;
  repository: PreparedRepository;
  /** The workspace's files for the start steps, answered from one survey of what they read. */
  files: SurveyedFiles;
  /** The setup script's note for the agent (null when it did not run or had nothing to say). */
  setup: string | null;
  hooks: HookStep;
  hookApproved: number | null;
  microagents: LoadedMicroagents;
  /** Dockhand's connections to the MCP servers (null: an agent over ACP connects them itself). */
  mcp: McpToolset | null;
  /** The coding agent over ACP, lent to the sandbox (null: Dockhand's own agent). */
  lent: LentAgent | null;
  agent: StartedAgent;
  shellStarted: unknown;
  initialized: unknown;
  hookInstalled: unknown;
}

/** What the start opened, for the runtime to hand out and to close. */
export interface Opened {
  workspace: Workspace | null;
  consent: RepositoryConsent | null;
  /** Hands the repository's provider token to git in the sandbox (`../git/credential-broker.ts`). */
  broker: Promise<CredentialBroker | null>;
  mcp: McpToolset | null;
}

const step = stepOf<StartResults>();

/**
 * The start of one conversation, each step with the results it needs; the runner starts each as soon as
 * they are there. Beside the sandbox's start: the secrets, the model key, the clone's token, the MCP code.
 * Once it runs: the workspace, then the repository (a clone or a copy surveys what the next steps read in
 * its own command), then the setup script and the microagents side by side, the hook's question after the setup
 * script, then MCP and the agent. The agent may think from there: the steps whose waiter is `commands`
 * (the shell's start, an empty workspace's `git init`, the credential broker, the hook's install) are
 * awaited by its commands.
 */
export function startPlan(start: StartContext, opened: Opened): StartPlan<StartResults> {
  const { ctx, record } = start;
  return {
    sandbox: step([], () => startSandbox(start), { stage: 'starting_sandbox' }),
    secretEnv: step([], () => sandboxSecretValues(ctx, record.request)),
    apiKey: step([], () => ctx.secrets.get('llm_api_key')),
    credentials: step([], () => gitCredentials(start)),
    mcpModule: step([], () => import('../mcp/conversation-mcp')),
    workspace: step(
      ['sandbox', 'secretEnv'],
      ({ sandbox, secretEnv }) => {
        const workspace = openWorkspace(start, sandbox.target, secretEnv);
        opened.workspace = workspace;
        opened.consent = new RepositoryConsent({
          record: (event) => start.appendEvent(event),
          settings: confirmationSettings(ctx.settings.stored() ?? {}),
          isolated: sandbox.target.isolated,
          signal: start.signal,
          report: (message) => start.note('setting_up_workspace', message),
        });
        return workspace;
      },
      { stage: 'setting_up_workspace' },
    ),
    repository: step(['workspace', 'credentials'], ({ workspace, credentials }) =>
      prepareRepository(start, workspace, credentials),
    ),
    // After the clone, which has the token in its own environment (and the CPU to itself); the agent's
    // commands, git's among them, wait for it in the shell's queue.
    broker: step(
      ['workspace', 'credentials', 'repository'],
      ({ workspace, credentials }) => {
        opened.broker = settledLater(credentialBroker(start, workspace, credentials));
        workspace.shell.hold(opened.broker);
        return opened.broker;
      },
      { waiter: 'commands' },
    ),
    files: step(['sandbox', 'workspace', 'repository'], async ({ sandbox, workspace, repository }) => {
      // Taken by the clone's or the copy's own command; with no repository, read ahead by a new sandbox's
      // first probe; else (a resumed sandbox, a copy kept from before) taken now.
      const known = repository.survey ?? (record.selectedRepository ? null : sandbox.readAhead);
      const roots = startSurveyRoots(repository.dir, workspace.target.workingDir);
      const survey = known ?? (await workspace.files.survey(roots).catch(() => null));
      return new SurveyedFiles(workspace.files, survey);
    }),
    setup: step(['workspace', 'files', 'repository'], async ({ workspace, files, repository }) => {
      const outcome = await runSetupScript({
        shell: workspace.shell,
        files,
        repoDir: repository.dir,
        stateDir: sandboxStateDir(workspace.target.workingDir),
        timeoutSeconds: ctx.limits.setupTimeoutSeconds,
        record: (event) => start.appendEvent(event),
        approve: (code) => start.approve(code),
        report: (message) => start.note('setting_up_workspace', message),
      });
      // The script may have changed any file: the steps after it read the sandbox itself.
      if (outcome.ran) files.forget();
      return outcome.ran ? outcome.note : null;
    }),
    // Step 7, after the setup script as before; the user is asked about the hook before the agent starts, so
    // every question about repository code comes first; the agent's commands wait for its install.
    hooks: step(
      ['workspace', 'files', 'repository', 'setup'],
      ({ workspace, files, repository }) => {
        const hooks = gitHookStep(Promise.resolve(), {
          exec: gitSandbox(workspace.target).exec,
          files,
          repoDir: repository.dir,
          approve: (code) => start.approve(code),
          record: (event) => start.appendEvent(event),
          warn: (message) => start.note('setting_up_git_hooks', message),
        });
        workspace.shell.hold(hooks.installed);
        return hooks;
      },
      { stage: 'setting_up_git_hooks' },
    ),
    hookApproved: step(['hooks'], ({ hooks }) => hooks.approved),
    microagents: step(
      ['files', 'repository'],
      ({ files, repository }) =>
        loadConversationMicroagents({
          files,
          repoDir: repository.dir,
          approve: (code) => start.approve(code),
          record: (event) => start.appendEvent(event),
          warn: (message) => start.note('loading_microagents', message),
        }),
      { stage: 'loading_microagents' },
    ),
    mcp: step(
      ['mcpModule', 'sandbox', 'microagents', 'setup', 'hookApproved'],
      async ({ mcpModule, sandbox, microagents }) => {
        if (runsAcpAgent(start)) return null;
        const mcp = await connectMcp(start, mcpModule, sandbox.target, microagents.servers);
        opened.mcp = mcp;
        return mcp;
      },
      { stage: 'connecting_mcp' },
    ),
    lent: step(['sandbox'], ({ sandbox }) => installAcpAgent(start, sandbox.target)),
    agent: step(
      ['workspace', 'secretEnv', 'apiKey', 'repository', 'microagents', 'setup', 'mcp', 'lent'],
      ({ workspace, secretEnv, apiKey, repository, microagents, setup, mcp, lent }) =>
        lent
          ? buildAcpAgent(start, {
              workspace,
              lent,
              apiKey,
              repoDir: repository.dir,
              microagentServers: microagents.servers,
            })
          : buildAgent(start, {
              workspace,
              secretEnv,
              apiKey,
              recall: recallOf(start, workspace, repository.dir, microagents.microagents, setup),
              mcp: mcp as McpToolset,
            }),
    ),
    shellStarted: step(['workspace'], ({ workspace }) => workspace.started, { waiter: 'commands' }),
    initialized: step(['repository'], ({ repository }) => repository.initialized, { waiter: 'commands' }),
    hookInstalled: step(['hooks'], ({ hooks }) => hooks.installed, { waiter: 'commands' }),
  };
}
