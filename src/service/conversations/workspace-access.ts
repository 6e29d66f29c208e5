import { posix } from 'node:path';
import { isRelativeWorkspacePath, OUTSIDE_WORKSPACE } from '../../shared/api/workspace';
import { httpError } from '../http/errors';
import type { LocalRepositoryStore } from '../local-repository/local-repository-store';
import { type Location, ValidationFailed } from '../http/validation';
import type { SandboxFiles } from '../sandbox/files/sandbox-files';
import type { SandboxService } from '../sandbox/sandbox-service';
import type { SandboxExec } from '../sandbox/sandbox-workspace';
import type { ConversationRecord } from './conversation-store';

/** Where in the request a value came from, e.g. `["query", "file"]`. */
export type ErrorLocation = [Location, ...(string | number)[]];

/** The workspace of a conversation whose sandbox is RUNNING, and how to reach into it. */
export interface ConversationWorkspace {
  /** The spec's working directory (`/workspace/project`): every client path is relative to it. */
  workingDir: string;
  /** The conversation's git repository: its clone inside the working directory, or the working directory. */
  repositoryDir: string;
  /** What the review compares with instead of HEAD: the starting snapshot of a repository from this machine. */
  reviewBase: string | null;
  files: SandboxFiles;
  /** Runs a command as the sandbox user. */
  exec: SandboxExec;
  /** Where a path really leads (`realpath -m`: links resolved, missing parts kept); null for a link loop. */
  realpath(path: string): Promise<string | null>;
}

/** A client's path, checked to lead inside the workspace. */
export interface WorkspacePath {
  /** Normalised and relative to the working directory (`""` for the working directory itself). */
  relative: string;
  /** Where it really is: operations use this path, so a link cannot lead them elsewhere. */
  real: string;
}

/** What the workspaces need of the conversations (`ConversationService` is one). */
export interface ConversationRecords {
  /** The conversation's record; 404 when there is none. */
  require(id: string): ConversationRecord;
}

/** The conversations' workspaces: only while a conversation runs in a RUNNING sandbox. */
export class WorkspaceAccess {
  constructor(
    private readonly deps: {
      sandboxes: Pick<SandboxService, 'workspace' | 'find'>;
      localRepositories: LocalRepositoryStore;
      conversations: ConversationRecords;
    },
  ) {}

  /** 404 for an unknown conversation; 409 unless it is running in a RUNNING sandbox. */
  async open(conversationId: string): Promise<ConversationWorkspace> {
    const record = this.deps.conversations.require(conversationId);
    const sandboxId = this.runningSandbox(record);
    if (!sandboxId) throw httpError(409, `Sandbox for conversation ${conversationId} is not running`);
    const workspace = await this.deps.sandboxes.workspace(sandboxId);
    const repository = record.selectedRepository;
    return {
      workingDir: workspace.workingDir,
      repositoryDir: repository
        ? posix.join(workspace.workingDir, repositoryFolder(repository))
        : workspace.workingDir,
      reviewBase: (await this.deps.localRepositories.load(record.id))?.baseline_commit ?? null,
      files: workspace.files,
      exec: (argv, options) => workspace.exec(argv, options),
      realpath: (path) => workspace.realpath(path),
    };
  }

  /** `{"http://localhost:<port>": <port>}` for the app ports while the sandbox runs, else empty. */
  webHosts(conversationId: string): Record<string, number> {
    const sandboxId = this.runningSandbox(this.deps.conversations.require(conversationId));
    const urls = sandboxId ? (this.deps.sandboxes.find(sandboxId)?.exposed_urls ?? []) : [];
    // The app ports only: the sandbox's agent-server endpoint is Dockhand's, not an app of the agent.
    const apps = urls.filter((url) => url.name !== 'AGENT_SERVER');
    return Object.fromEntries(apps.map((url) => [`http://localhost:${url.port}`, url.port]));
  }

  private runningSandbox(record: ConversationRecord): string | null {
    if (record.status === 'STOPPED' || !record.sandboxId) return null;
    return this.deps.sandboxes.find(record.sandboxId)?.status === 'RUNNING' ? record.sandboxId : null;
  }
}

/** A 422 `value_error` about a path the client sent. */
export function pathValueError(loc: ErrorLocation, text: string, input: string): ValidationFailed {
  return new ValidationFailed([{ type: 'value_error', loc, msg: `Value error, ${text}`, input }]);
}

/** Checks that `path` (relative to the workspace) really leads inside it, else 422 at `loc`. */
export async function resolveInWorkspace(
  workspace: ConversationWorkspace,
  path: string,
  loc: ErrorLocation,
): Promise<WorkspacePath> {
  const outside = pathValueError(loc, OUTSIDE_WORKSPACE, path);
  if (!isRelativeWorkspacePath(path)) throw outside;
  const absolute = posix.join(workspace.workingDir, path);
  const [root, real] = await Promise.all([
    workspace.realpath(workspace.workingDir),
    workspace.realpath(absolute),
  ]);
  if (root === null) throw new Error(`The workspace ${workspace.workingDir} cannot be resolved`);
  if (real === null || (real !== root && !real.startsWith(`${root}/`))) throw outside;
  return { relative: posix.relative(workspace.workingDir, absolute), real };
}

/** The folder a repository is cloned into: its last path segment (`owner/repo` → `repo`). */
function repositoryFolder(repository: string): string {
  return repository.split('/').at(-1) ?? repository;
}
