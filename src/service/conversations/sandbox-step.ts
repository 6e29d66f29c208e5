import type { EditorFiles } from '../agent/tools/str-replace-editor/editor';
import { gitIdentityEnv } from '../git/git-identity';
import type { FileSurvey, SandboxFiles } from '../sandbox/files/sandbox-files';
import type { SandboxWorkspace } from '../sandbox/sandbox-workspace';
import type { ShellSession } from '../sandbox/shell/shell-session';
import { gitIdentity } from '../settings/settings-service';
import type { StartContext } from './start-context';
import { StartFailed } from './start-status';
import { settledLater } from './start-runner';

export interface StartedSandbox {
  target: SandboxWorkspace;
  /** What a new sandbox's first probe read ahead: the start survey of a workspace with no repository. */
  readAhead: FileSurvey | null;
}

export interface Workspace {
  shell: ShellSession;
  /** The shell's start (begun when the workspace opens; its commands queue behind it). */
  started: Promise<void>;
  files: SandboxFiles;
  /** The files as the agent's editor uses them, with removal. */
  editorFiles: EditorFiles;
  target: SandboxWorkspace;
}

/**
 * The conversation's sandbox: its own one started again, or a new one from the default spec; with what its
 * first probe read ahead of the workspace, if anything.
 */
export async function startSandbox(start: StartContext): Promise<StartedSandbox> {
  const { ctx, record } = start;
  const sandboxes = ctx.sandboxes;
  let info = record.sandboxId ? sandboxes.find(record.sandboxId) : null;
  if (info && (info.status === 'MISSING' || info.status === 'ERROR')) {
    start.note('starting_sandbox', 'Workspace was recreated');
    info = null;
  }
  if (info) info = await sandboxes.ensureRunning(info.id);
  else {
    const spec = ctx.sandboxSpecs.default();
    // Getting the image may take minutes (a pull, or a build offline): its progress is the status.
    const stopNotices = ctx.sandboxSpecs.onImageNotice(spec, (message) =>
      start.note('starting_sandbox', message),
    );
    try {
      const created = await sandboxes.create(spec);
      start.update({ sandboxId: created.id });
      info = await sandboxes.settled(created.id);
    } finally {
      stopNotices();
    }
  }
  if (info.status !== 'RUNNING') {
    throw new StartFailed('error', `The sandbox could not start: ${info.error ?? info.status}`);
  }
  const readAhead = sandboxes.takeReadAhead(info.id);
  return { target: await sandboxes.workspace(info.id), readAhead };
}

/** The shell (starting in the background) and the file access of the sandbox. */
export function openWorkspace(
  start: StartContext,
  target: SandboxWorkspace,
  secretEnv: Record<string, string>,
): Workspace {
  const env = {
    ...secretEnv,
    ...gitIdentityEnv(gitIdentity(start.ctx.settings.stored())),
    APP_PORT_1: String(target.appPorts.WORKER_1),
    APP_PORT_2: String(target.appPorts.WORKER_2),
    CI: '1',
    DEBIAN_FRONTEND: 'noninteractive',
    GIT_TERMINAL_PROMPT: '0',
    PIP_NO_INPUT: '1',
    npm_config_yes: 'true',
    PAGER: 'cat',
  };
  // A restarted conversation's shell starts where the previous one was (and says so in its first output).
  const restored = start.saved?.workingDir;
  const shell = target.shell({ env, ...(restored ? { restoredWorkingDir: restored } : {}) });
  const files = target.files;
  return {
    shell,
    started: settledLater(shell.start()),
    files,
    editorFiles: {
      read: (p, options) => files.read(p, options),
      write: (p, data, options) => files.write(p, data, options),
      stat: (p) => files.stat(p),
      list: (p) => files.list(p),
      remove: (p) => removeInSandbox(target, p),
    },
    target,
  };
}

async function removeInSandbox(workspace: SandboxWorkspace, file: string): Promise<void> {
  const result = await workspace.exec(['rm', '-f', '--', file], { user: 'root' });
  if (result.exitCode !== 0) throw new Error(`Could not remove ${file}: ${result.stderr.trim()}`);
}
