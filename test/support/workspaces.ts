import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalSandboxFiles } from '../../src/service/sandbox/files/local-files';
import { localRealpath } from '../../src/service/sandbox/process/local-realpath';
import { processExec } from '../../src/service/sandbox/process/process-exec';
import type { ConversationWorkspace } from '../../src/service/conversations/workspace-access';

/** A workspace on this machine, as a process sandbox has: `<tmp>/project`, with a shell to arrange it. */
export interface LocalWorkspace extends ConversationWorkspace {
  /** The temporary folder around the working directory (what a sandbox calls `/workspace`). */
  outer: string;
  /** Runs a shell script in the working directory; rejects on a non-zero exit. */
  sh(script: string): Promise<string>;
  remove(): Promise<void>;
}

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

export async function localWorkspace(repositoryFolder?: string): Promise<LocalWorkspace> {
  const outer = await realpath(await mkdtemp(join(tmpdir(), 'dockhand-workspace-')));
  const workingDir = join(outer, 'project');
  await mkdir(workingDir);
  return {
    outer,
    workingDir,
    repositoryDir: repositoryFolder ? join(workingDir, repositoryFolder) : workingDir,
    reviewBase: null,
    files: new LocalSandboxFiles(),
    exec: (argv, options = {}) => processExec(argv, { ...options, env: { ...process.env, ...options.env } }),
    realpath: localRealpath,
    sh: (script) =>
      new Promise((resolve, reject) =>
        execFile(
          'sh',
          ['-c', script],
          { cwd: workingDir, env: { ...process.env, ...GIT_IDENTITY } },
          (error, stdout, stderr) => (error ? reject(new Error(`${script}: ${stderr}`)) : resolve(stdout)),
        ),
      ),
    remove: () => rm(outer, { recursive: true, force: true }),
  };
}
