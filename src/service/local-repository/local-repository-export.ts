import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  LocalRepositoryExportRequest,
  LocalRepositoryExportResult,
  LocalRepositoryInfo,
} from '../../shared/api/local-repository';
import type { WorkspaceAccess } from '../conversations/workspace-access';
import { gitIdentityEnv } from '../git/git-identity';
import { gitIdentity, type SettingsService } from '../settings/settings-service';
import { httpError } from '../http/errors';
import { ValidationFailed } from '../http/validation';
import { applyToWorkingTree } from './apply-to-tree';
import { checked, exportWork } from './export-bundle';
import { GitOutputTooLarge, hostGit, hostGitLine } from './host-git';
import type { LocalRepositoryStore } from './local-repository-store';
import { resolveLocalRepository } from './resolve-repository';

const DEFAULT_MESSAGE = 'Work from a Dockhand conversation';

/** Brings a conversation's work back to the repository of this machine it was copied from. */
export class LocalRepositoryExport {
  /** Repositories with an export under way: one at a time each, so two cannot interleave their writes. */
  private readonly running = new Set<string>();

  constructor(
    private readonly deps: {
      settings: Pick<SettingsService, 'stored'>;
      store: LocalRepositoryStore;
      workspaces: WorkspaceAccess;
    },
  ) {}

  /** The conversation's local repository, else 404. */
  async info(conversationId: string): Promise<LocalRepositoryInfo> {
    const info = await this.deps.store.load(conversationId);
    if (!info) throw httpError(404, `Conversation ${conversationId} has no repository of this machine`);
    return info;
  }

  async export(
    conversationId: string,
    request: LocalRepositoryExportRequest,
  ): Promise<LocalRepositoryExportResult> {
    const info = await this.info(conversationId);
    const workspace = await this.deps.workspaces.open(conversationId);
    if (this.running.has(info.repository)) {
      throw httpError(409, `An export to ${info.repository} is running; try again when it has finished`);
    }
    this.running.add(info.repository);
    const tempDir = await mkdtemp(path.join(tmpdir(), 'dockhand-export-'));
    try {
      const repository = await resolveLocalRepository(info.repository, null).catch((error: unknown) => {
        if (error instanceof ValidationFailed)
          throw httpError(409, `${info.repository} is no longer a git repository`);
        throw error;
      });
      if (request.mode === 'branch') await this.checkNewBranch(repository.root, request.branch);
      const work = await exportWork(workspace, info, repository.commonDir, {
        message: (request.mode === 'branch' ? request.message : undefined) ?? DEFAULT_MESSAGE,
        identity: gitIdentityEnv(gitIdentity(this.deps.settings.stored())),
        tempDir,
      });
      if (request.mode === 'apply') {
        const gitDir = await hostGitLine(repository.root, ['rev-parse', '--absolute-git-dir']);
        const files = await applyToWorkingTree(
          { root: repository.root, gitDirs: [repository.commonDir, ...(gitDir ? [gitDir] : [])] },
          work.scratch,
          info.baseline_commit,
          work.commit,
        );
        return { mode: 'apply', repository: repository.root, files };
      }
      // From the scratch repository, whose objects passed the checks: a fetch of a real pack, checked again.
      await checked(repository.root, [
        'fetch',
        '-q',
        '--no-tags',
        '--no-write-fetch-head',
        '--no-recurse-submodules',
        work.scratch,
        'refs/dockhand/export',
      ]);
      // Created only if it still does not exist: an empty old value makes update-ref refuse otherwise.
      const created = await hostGit(repository.root, [
        'update-ref',
        '-m',
        'dockhand: export',
        `refs/heads/${request.branch}`,
        work.commit,
        '',
      ]);
      if (created.exitCode !== 0) throw httpError(409, `Branch ${request.branch} already exists`);
      const range = info.start_commit ? [work.commit, `^${info.start_commit}`] : [work.commit];
      const commits = Number((await checked(work.scratch, ['rev-list', '--count', ...range])).trim());
      return {
        mode: 'branch',
        repository: repository.root,
        branch: request.branch,
        commit: work.commit,
        commits,
      };
    } catch (error) {
      if (error instanceof GitOutputTooLarge)
        throw httpError(409, `The agent’s work is too large to bring back: ${error.message}`);
      throw error;
    } finally {
      this.running.delete(info.repository);
      await rm(tempDir, { recursive: true, force: true });
    }
  }

  /** 422 for a name git does not accept as a branch; 409 when the branch exists. */
  private async checkNewBranch(root: string, branch: string): Promise<void> {
    const normalised = await hostGitLine(root, ['check-ref-format', '--branch', branch]);
    if (normalised !== branch) {
      throw new ValidationFailed([
        {
          type: 'value_error',
          loc: ['body', 'branch'],
          msg: `Value error, ${branch} is not a valid branch name`,
          input: branch,
        },
      ]);
    }
    if (await hostGitLine(root, ['rev-parse', '-q', '--verify', `refs/heads/${branch}`])) {
      throw httpError(409, `Branch ${branch} already exists`);
    }
  }
}
