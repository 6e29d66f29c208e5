import { ValidationFailed } from '../http/validation';
import type { GitSandbox } from '../git/git-sandbox';
import type { FileSurvey, SandboxFiles, SurveyRoot } from '../sandbox/files/sandbox-files';
import { copyDirectory, copyIntoSandbox, hasCopy, sandboxUser } from './copy-into-sandbox';
import type { LocalRepositoryStore } from './local-repository-store';
import { resolveLocalRepository } from './resolve-repository';

const MB = 1024 * 1024;
/** Progress is reported for copies above this size, at most once a second. */
const PROGRESS_FROM_BYTES = 20 * MB;

export interface LocalCopyStep {
  conversationId: string;
  store: LocalRepositoryStore;
  /** The repository's real path, as the conversation was created with it. */
  repository: string;
  branch: string | null;
  sandbox: GitSandbox;
  files: SandboxFiles;
  workingDir: string;
  identity: Record<string, string>;
  report: (message: string) => void;
  /** The folders to survey once a new copy is there, for its folder (in the copy's last command). */
  survey?: (directory: string) => SurveyRoot[];
}

export interface LocalCopy {
  directory: string;
  /** With `survey`, for a new copy: what it surveyed (null when that failed). */
  survey?: FileSurvey | null;
}

/**
 * The start step of a conversation on a local repository: checks the repository again (it may have changed
 * since the conversation was created), copies it into the sandbox with progress, and records the baseline.
 * A conversation that starts again keeps its copy.
 */
export async function copyLocalRepository(step: LocalCopyStep): Promise<LocalCopy> {
  try {
    return await copy(step);
  } catch (error) {
    const reason =
      error instanceof ValidationFailed
        ? error.detail.map((d) => d.msg.replace(/^Value error, /, '')).join('; ')
        : (error as Error).message;
    throw new Error(`Copying ${step.repository} failed: ${reason}`, { cause: error });
  }
}

async function copy(step: LocalCopyStep): Promise<LocalCopy> {
  const { store } = step;
  const directory = copyDirectory(step.workingDir, step.repository);
  if ((await store.load(step.conversationId)) && (await hasCopy(step.sandbox, directory)))
    return { directory };
  // The sandbox user's ids are asked while the repository is checked on this machine.
  const owner = sandboxUser(step.sandbox);
  owner.catch(() => undefined);
  const repository = await resolveLocalRepository(step.repository, step.branch);
  step.report(`Copying ${repository.root}`);
  let reportedAt = 0;
  const copied = await copyIntoSandbox({
    owner: await owner,
    repository,
    sandbox: step.sandbox,
    files: step.files,
    workingDir: step.workingDir,
    identity: step.identity,
    notice: step.report,
    ...(step.survey ? { survey: step.survey } : {}),
    progress: (sent, total) => {
      const now = Date.now();
      if (total < PROGRESS_FROM_BYTES || (now - reportedAt < 1000 && sent < total)) return;
      reportedAt = now;
      step.report(`Copying ${repository.root}: ${Math.round(sent / MB)} of ${Math.round(total / MB)} MB`);
    },
  });
  await store.save(step.conversationId, {
    repository: repository.root,
    branch: repository.branch,
    start_commit: repository.head,
    baseline_commit: copied.baseline,
  });
  return { directory: copied.directory, ...(copied.survey !== undefined ? { survey: copied.survey } : {}) };
}
