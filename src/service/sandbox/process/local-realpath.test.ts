import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localRealpath } from './local-realpath';

describe('localRealpath', () => {
  let outer: string;
  let workingDir: string;
  const sh = (script: string) => execFileSync('sh', ['-c', script], { cwd: workingDir });

  beforeEach(async () => {
    outer = await realpath(await mkdtemp(join(tmpdir(), 'dockhand-realpath-')));
    workingDir = join(outer, 'project');
    await mkdir(workingDir);
  });
  afterEach(() => rm(outer, { recursive: true, force: true }));

  it('resolves links and keeps missing parts as named', async () => {
    sh('mkdir -p real/sub && ln -s real link && touch file');
    expect(await localRealpath(join(workingDir, 'link/sub'))).toBe(join(workingDir, 'real/sub'));
    expect(await localRealpath(join(workingDir, 'link/missing/deeper'))).toBe(
      join(workingDir, 'real/missing/deeper'),
    );
    expect(await localRealpath(join(workingDir, 'file/below'))).toBe(join(workingDir, 'file/below'));
  });

  it('follows a dangling link to where it points, and gives null for a loop', async () => {
    sh('ln -s ../outside/new dangling && ln -s loop-b loop-a && ln -s loop-a loop-b');
    expect(await localRealpath(join(workingDir, 'dangling'))).toBe(join(outer, 'outside/new'));
    expect(await localRealpath(join(workingDir, 'dangling/x'))).toBe(join(outer, 'outside/new/x'));
    expect(await localRealpath(join(workingDir, 'loop-a'))).toBeNull();
  });
});
