import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitDiffQuery, ListFilesQuery, SelectFileQuery } from '../../shared/api/workspace';
import { validate, ValidationFailed } from '../http/validation';
import { localWorkspace, type LocalWorkspace } from '../../../test/support/workspaces';
import { resolveInWorkspace } from './workspace-access';

const OUTSIDE = 'Value error, Path must stay inside the workspace';

function detailOf(run: () => unknown): unknown {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof ValidationFailed ? error.detail : error;
  }
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationFailed);
  return (error as ValidationFailed).detail;
}

describe('workspace path queries', () => {
  it('refuse absolute paths, .. and NUL as a value_error at the parameter', () => {
    for (const file of ['/etc/passwd', '../x', 'a/../../b', 'a/..', 'a\0b']) {
      expect(detailOf(() => validate(SelectFileQuery, { file }, 'query'))).toEqual([
        { type: 'value_error', loc: ['query', 'file'], msg: OUTSIDE, input: file },
      ]);
    }
  });

  it('take relative paths, names with dots, and an empty or absent folder', () => {
    expect(validate(SelectFileQuery, { file: 'src/..hidden/a..b.txt' }, 'query')).toEqual({
      file: 'src/..hidden/a..b.txt',
    });
    expect(validate(ListFilesQuery, {}, 'query')).toEqual({});
    expect(validate(ListFilesQuery, { path: '' }, 'query')).toEqual({ path: '' });
    expect(detailOf(() => validate(GitDiffQuery, { path: '' }, 'query'))).toMatchObject([
      { type: 'string_too_short', loc: ['query', 'path'] },
    ]);
    expect(detailOf(() => validate(GitDiffQuery, {}, 'query'))).toMatchObject([
      { type: 'missing', loc: ['query', 'path'] },
    ]);
  });
});

describe('resolveInWorkspace', () => {
  let ws: LocalWorkspace;
  beforeEach(async () => {
    ws = await localWorkspace();
    await ws.sh(
      'mkdir -p src/lib && ln -s src inner && ln -s /etc etc && ln -s ../.. up && ln -s ../gone dangling',
    );
  });
  afterEach(() => ws.remove());

  it('answers the relative path and where it really is', async () => {
    expect(await resolveInWorkspace(ws, '', ['query', 'path'])).toEqual({
      relative: '',
      real: ws.workingDir,
    });
    expect(await resolveInWorkspace(ws, 'src/lib/', ['query', 'path'])).toEqual({
      relative: 'src/lib',
      real: join(ws.workingDir, 'src/lib'),
    });
    expect(await resolveInWorkspace(ws, 'inner/lib/new.txt', ['query', 'file'])).toEqual({
      relative: 'inner/lib/new.txt',
      real: join(ws.workingDir, 'src/lib/new.txt'),
    });
  });

  it('refuses links that lead out, and paths that try to', async () => {
    for (const path of ['etc/passwd', 'etc', 'up', 'up/x', 'dangling', '../x', '/etc/passwd']) {
      expect(await refusal(resolveInWorkspace(ws, path, ['query', 'file']))).toEqual([
        { type: 'value_error', loc: ['query', 'file'], msg: OUTSIDE, input: path },
      ]);
    }
  });
});
