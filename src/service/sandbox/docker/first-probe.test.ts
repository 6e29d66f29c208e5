import { describe, expect, it } from 'vitest';
import { SURVEY_SCRIPT } from '../files/survey-command';
import { firstProbeCommand, readAheadOf } from './first-probe';

const BASE = { workspaceDir: '/workspace', workingDir: '/workspace/project' };
const ROOTS = [
  { path: '/workspace/project/', depth: 1, read: false },
  { path: '/workspace/project/.openhands', depth: 6, read: true },
];
const RECORD = (type: string, mode: string, uid: number, path: string) =>
  ['E', type, mode, String(uid), '1000', '3', '1.5', '', path].join('\0');

describe('firstProbeCommand', () => {
  it('only hands the workspace to the user, or checks that commands run, when nothing is read ahead', () => {
    expect(firstProbeCommand({ ...BASE, user: 'dockhand', roots: [] })).toEqual([
      'sh',
      '-c',
      'mkdir -p "$1" && chown "$2" "$0" "$1" || exit 1\nshift\n',
      '/workspace',
      '/workspace/project',
      'dockhand',
    ]);
    expect(firstProbeCommand({ ...BASE, user: null, roots: [] })).toEqual(['true']);
  });

  it('surveys the roots, normalised, in the same exec, for the user it hands the workspace to', () => {
    const [, , script, ...args] = firstProbeCommand({ ...BASE, user: 'dockhand', roots: ROOTS });
    expect(script?.endsWith(SURVEY_SCRIPT)).toBe(true);
    expect(args).toEqual([
      '/workspace',
      '/workspace/project',
      'dockhand',
      '1',
      '0',
      '/workspace/project',
      '6',
      '1',
      '/workspace/project/.openhands',
    ]);
    expect(firstProbeCommand({ ...BASE, user: null, roots: ROOTS }).slice(3, 5)).toEqual(['sh', '']);
  });
});

describe('readAheadOf', () => {
  const probe = { ...BASE, user: 'dockhand', roots: ROOTS };
  const result = (stdout: string, truncated = false) => ({ exitCode: 0, stdout, stderr: '', truncated });

  it('keeps what the user could read, with the bytes of small files', () => {
    const stdout = [
      'U\x001000\x001000 27',
      RECORD('d', '755', 1000, '/workspace/project'),
      RECORD('f', '644', 0, '/workspace/project/.openhands/setup.sh'),
      ['C', '/workspace/project/.openhands/setup.sh', Buffer.from('echo hi').toString('base64')].join('\0'),
      '',
    ].join('\0');
    const survey = readAheadOf(result(stdout), probe);
    expect([...(survey?.entries.keys() ?? [])]).toEqual([
      '/workspace/project',
      '/workspace/project/.openhands/setup.sh',
    ]);
    expect(survey?.contents.get('/workspace/project/.openhands/setup.sh')?.toString()).toBe('echo hi');
  });

  it('keeps nothing when the user could not read an entry, the output was cut, or nothing was asked', () => {
    const hidden = ['U\x001000\x001000', RECORD('f', '600', 0, '/workspace/project/secret'), ''].join('\0');
    expect(readAheadOf(result(hidden), probe)).toBeNull();
    const closedFolder = [
      'U\x001000\x0027',
      RECORD('d', '770', 0, '/workspace/project/x'),
      RECORD('d', '705', 0, '/workspace/project/y'),
      '',
    ].join('\0');
    expect(readAheadOf(result(closedFolder), probe)).toBeNull();
    const ownFolder = ['U\x001000\x001000', RECORD('d', '700', 1000, '/workspace/project/x'), ''].join('\0');
    expect(readAheadOf(result(ownFolder), probe)).not.toBeNull();
    expect(readAheadOf(result(ownFolder, true), probe)).toBeNull();
    expect(readAheadOf(result(ownFolder), { ...probe, roots: [] })).toBeNull();
  });
});
