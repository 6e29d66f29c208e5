import type { GitProvider } from '../../shared/api/settings';
import { isLocalRepository } from '../../shared/api/local-repository';
import { cloneRepository, initEmptyWorkspace } from '../git/clone';
import { CLONE_STATUS, CloneError } from '../git/clone-errors';
import { type CredentialBroker, startCredentialBroker } from '../git/credential-broker';
import type { CredentialTarget } from '../git/credential-helper';
import { configureGitExcludes } from '../git/git-excludes';
import { gitIdentityEnv } from '../git/git-identity';
import { gitSandbox } from '../git/git-sandbox';
import { DEFAULT_HOSTS } from '../git/provider-api';
import { copyLocalRepository } from '../local-repository/start-step';
import type { FileSurvey } from '../sandbox/files/sandbox-files';
import { shellQuote } from '../sandbox/shell/shell-input';
import { gitIdentity } from '../settings/settings-service';
import type { Workspace } from './sandbox-step';
import type { StartContext } from './start-context';
import { settledLater } from './start-runner';
import { StartFailed } from './start-status';
import { startSurveyRoots } from './start-survey';

/** The provider, host and stored token a clone uses (null without a repository to clone). */
export interface GitCredentials {
  provider: GitProvider;
  host: string;
  token: string | null;
}

export interface PreparedRepository {
  /** Where the repository is (the working directory when there is none). */
  dir: string;
  /** An empty workspace's `git init`, in the background (the shell holds the agent's commands until then). */
  initialized: Promise<void>;
  /** The start survey, when the clone or the copy took it in its own command (null when that failed). */
  survey?: FileSurvey | null;
}

/** The clone's provider, host and token, read beside the sandbox's start. */
export async function gitCredentials(start: StartContext): Promise<GitCredentials | null> {
  const repository = start.record.selectedRepository;
  if (!repository || isLocalRepository(repository)) return null;
  const provider = (start.record.gitProvider ?? 'github') as GitProvider;
  const stored = await start.ctx.providerTokens.token(provider);
  const host = stored?.host ?? DEFAULT_HOSTS[provider as keyof typeof DEFAULT_HOSTS];
  return { provider, host, token: stored?.token ?? null };
}

/**
 * The repository in the workspace: a clone (with the start survey in the same command), a copy of a
 * repository of this machine, or, without one, the working directory made a git repository.
 */
export async function prepareRepository(
  start: StartContext,
  workspace: Workspace,
  credentials: GitCredentials | null,
): Promise<PreparedRepository> {
  const { target } = workspace;
  const sandbox = gitSandbox(target);
  const repository = start.record.selectedRepository;
  // Before anything is listed as a change: interpreter caches are never the agent's work. Not beside the
  // clone: both write the sandbox user's global git config, and git locks it.
  await configureGitExcludes(sandbox).catch((error: unknown) =>
    start.ctx.logger.warn({ conversation_id: start.record.id, err: error }, 'sandbox git excludes not set'),
  );
  if (!repository) {
    const initialized = settledLater(initEmptyWorkspace(sandbox.exec, target.workingDir));
    workspace.shell.hold(initialized);
    return { dir: target.workingDir, initialized };
  }
  const directory = isLocalRepository(repository)
    ? await copyLocal(start, workspace, repository)
    : await clone(start, workspace, repository, credentials as GitCredentials);
  // A restarted shell stays in the directory its predecessor was in.
  if (!start.saved?.workingDir)
    void workspace.shell.execute({ command: `cd ${shellQuote(directory.dir)}` }).catch(() => undefined);
  return { ...directory, initialized: Promise.resolve() };
}

/**
 * Clones the repository into the workspace with the provider token only in the clone's environment (a
 * credential helper hands it to git); later git commands get it from the credential broker, for the
 * repository's host only.
 */
async function clone(
  start: StartContext,
  workspace: Workspace,
  repository: string,
  { provider, host, token }: GitCredentials,
): Promise<{ dir: string; survey?: FileSurvey | null }> {
  const { target } = workspace;
  const scheme = start.ctx.gitScheme;
  start.note('setting_up_workspace', `Cloning ${repository}`);
  try {
    const cloned = await cloneRepository({
      sandbox: gitSandbox(target),
      repository,
      provider,
      host,
      token,
      branch: start.record.selectedBranch,
      workingDir: target.workingDir,
      scheme,
      survey: (directory) => startSurveyRoots(directory, target.workingDir),
    });
    start.update({ selectedBranch: cloned.branch });
    return { dir: cloned.directory, survey: cloned.survey };
  } catch (error) {
    if (!(error instanceof CloneError)) throw error;
    throw new StartFailed(
      error.statusId === CLONE_STATUS.authentication ? 'git_auth' : 'error',
      error.message,
    );
  }
}

/**
 * The sandbox's credential broker, for the repository's provider and host, when there is a token: later git
 * commands get it from there (the clone had it in its own environment). Without it (no python3 in the
 * sandbox) the clone still works, but later git commands in the shell get no token.
 */
export async function credentialBroker(
  start: StartContext,
  workspace: Workspace,
  credentials: GitCredentials | null,
): Promise<CredentialBroker | null> {
  if (!credentials?.token) return null;
  const target: CredentialTarget = { ...credentials, scheme: start.ctx.gitScheme };
  const conversationId = start.record.id;
  const { logger, providerTokens } = start.ctx;
  try {
    return await startCredentialBroker({
      workspace: workspace.target,
      target,
      token: async () => (await providerTokens.token(target.provider))?.token ?? null,
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
async function copyLocal(
  start: StartContext,
  workspace: Workspace,
  repository: string,
): Promise<{ dir: string; survey?: FileSurvey | null }> {
  const { target } = workspace;
  const copy = await copyLocalRepository({
    conversationId: start.record.id,
    store: start.ctx.localRepositories,
    repository,
    branch: start.record.selectedBranch,
    sandbox: gitSandbox(target),
    files: workspace.files,
    workingDir: target.workingDir,
    identity: gitIdentityEnv(gitIdentity(start.ctx.settings.stored())),
    report: (message) => start.note('setting_up_workspace', message),
    survey: (directory) => startSurveyRoots(directory, target.workingDir),
  }).catch((error: unknown) => {
    throw new StartFailed('error', (error as Error).message);
  });
  return { dir: copy.directory, ...(copy.survey !== undefined ? { survey: copy.survey } : {}) };
}
