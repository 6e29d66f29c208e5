import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalSandboxFiles } from '../sandbox/files/local-files';
import { hostFolders } from './folder-reader';
import { MAX_MICROAGENT_FILE_BYTES, loadMicroagents, userMicroagentDirs } from './load-microagents';
import type { Microagent } from './microagent';
import { REPOSITORY_INSTRUCTIONS_MAX_CHARS } from './repository-instructions';

const BUILTINS = ['github', 'gitlab', 'bitbucket', 'docker', 'npm', 'security'];

let root: string;
let repo: string;
let dockhandDir: string;
let openhandsDir: string;

async function put(path: string, text: string | Buffer) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

const load = () =>
  loadMicroagents({ files: new LocalSandboxFiles(), repoDir: repo, userDirs: [dockhandDir, openhandsDir] });
const byName = (microagents: Microagent[], name: string) => microagents.find((m) => m.name === name);
const names = (microagents: Microagent[]) => microagents.map((m) => m.name);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'dockhand-microagents-'));
  repo = join(root, 'repo');
  dockhandDir = join(root, 'home/.dockhand/microagents');
  openhandsDir = join(root, 'home/.openhands/microagents');
  await mkdir(repo, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadMicroagents', () => {
  it('loads only the built-ins when no folder exists and there is no repository', async () => {
    const result = await loadMicroagents({
      files: new LocalSandboxFiles(),
      repoDir: null,
      userDirs: [join(root, 'missing')],
    });
    expect(result).toMatchObject({ warnings: [] });
    expect(names(result.microagents)).toEqual(BUILTINS);
  });

  it('loads the sources in order, the later one winning a name clash', async () => {
    await put(join(dockhandDir, 'style.md'), 'Dockhand user style.');
    await put(join(dockhandDir, 'docker.md'), '---\ntriggers: [docker]\n---\nMy docker notes.');
    await put(join(openhandsDir, 'style.md'), 'OpenHands user style.');
    await put(join(openhandsDir, 'mine.md'), 'Mine.');
    await put(join(repo, '.openhands/microagents/repo.md'), 'Repository rules.');
    await put(join(repo, '.openhands/microagents/mine.md'), 'Repository mine.');
    await put(join(repo, 'AGENTS.md'), 'Agents file.');
    await put(join(repo, '.cursorrules'), 'Cursor rules.');
    await put(join(repo, '.openhands_instructions'), 'Legacy instructions.');

    const { microagents, warnings } = await load();
    expect(warnings).toEqual([]);
    expect(names(microagents)).toEqual([
      'github',
      'gitlab',
      'bitbucket',
      'npm',
      'security',
      'docker',
      'style',
      'mine',
      'repo',
      'agents',
      'cursorrules',
      'repo_legacy',
    ]);
    expect(byName(microagents, 'docker')).toMatchObject({
      content: 'My docker notes.',
      source: join(dockhandDir, 'docker.md'),
    });
    expect(byName(microagents, 'style')?.content).toBe('OpenHands user style.');
    expect(byName(microagents, 'mine')).toMatchObject({
      content: 'Repository mine.',
      source: join(repo, '.openhands/microagents/mine.md'),
    });
    expect(byName(microagents, 'agents')).toMatchObject({ type: 'repo', content: 'Agents file.' });
    expect(byName(microagents, 'repo_legacy')?.content).toBe('Legacy instructions.');
  });

  it('walks nested folders, naming by relative path, and skips README.md and other files', async () => {
    const dir = join(repo, '.openhands/microagents');
    await put(join(dir, 'README.md'), 'About these files.');
    await put(join(dir, 'notes.txt'), 'Not a microagent.');
    await put(join(dir, 'lang/python/testing.md'), '---\ntriggers: [pytest]\n---\nUse pytest -q.');
    await put(join(dir, 'lang/README.md'), 'About languages.');

    const { microagents, warnings } = await load();
    expect(warnings).toEqual([]);
    expect(names(microagents).slice(BUILTINS.length)).toEqual(['lang/python/testing']);
  });

  it('takes the first of AGENTS.md, agents.md, AGENT.md and agent.md', async () => {
    await put(join(repo, 'agents.md'), 'lower case');
    await put(join(repo, 'AGENT.md'), 'singular');
    expect(byName((await load()).microagents, 'agents')?.content).toBe('lower case');
  });

  it('skips bad files with a warning naming each, and loads the rest', async () => {
    const dir = join(repo, '.openhands/microagents');
    await put(join(dir, 'broken.md'), '---\ntriggers: [unclosed\n---\nx');
    await put(join(dir, 'bad-type.md'), '---\ntriggers: docker\n---\nx');
    await put(join(dir, 'binary.md'), Buffer.from([0x2d, 0xff, 0xfe, 0x00]));
    await put(join(dir, 'huge.md'), 'x'.repeat(MAX_MICROAGENT_FILE_BYTES + 1));
    await put(join(dir, 'good.md'), 'Good.');

    const { microagents, warnings } = await load();
    expect(names(microagents).slice(BUILTINS.length)).toEqual(['good']);
    expect(warnings).toEqual([
      `Skipped microagent ${join(dir, 'bad-type.md')}: triggers: Invalid input: expected array, received string`,
      `Skipped microagent ${join(dir, 'binary.md')}: not UTF-8 text`,
      expect.stringMatching(
        new RegExp(`^Skipped microagent ${join(dir, 'broken.md')}: the frontmatter is not valid YAML: `),
      ),
      `Skipped microagent ${join(dir, 'huge.md')}: larger than ${MAX_MICROAGENT_FILE_BYTES} bytes`,
    ]);
  });

  it('warns about a user folder it cannot list, and loads the other sources', async () => {
    await put(join(openhandsDir, 'b.md'), 'B.');
    const { microagents, warnings } = await loadMicroagents({
      files: new LocalSandboxFiles(),
      repoDir: null,
      userDirs: [dockhandDir, openhandsDir],
      host: {
        ...hostFolders,
        list: (dir) =>
          dir === dockhandDir
            ? Promise.reject(new Error(`EACCES: permission denied, scandir '${dir}'`))
            : hostFolders.list(dir),
      },
    });
    expect(names(microagents)).toEqual([...BUILTINS, 'b']);
    expect(warnings).toEqual([
      `Skipped the microagent folder ${dockhandDir}: EACCES: permission denied, scandir '${dockhandDir}'`,
    ]);
  });

  it('reads symlinked files but does not enter symlinked folders', async () => {
    await put(join(root, 'shared/rules.md'), 'Shared rules.');
    await put(join(root, 'CLAUDE.md'), 'Claude file.');
    await mkdir(join(repo, '.openhands/microagents'), { recursive: true });
    await symlink(join(root, 'shared/rules.md'), join(repo, '.openhands/microagents/linked.md'));
    await symlink(join(root, 'shared'), join(repo, '.openhands/microagents/loop'));
    await symlink(join(root, 'missing.md'), join(repo, '.openhands/microagents/dangling.md'));
    await symlink(join(root, 'CLAUDE.md'), join(repo, 'AGENTS.md'));
    await mkdir(dockhandDir, { recursive: true });
    await symlink(join(root, 'shared'), join(dockhandDir, 'linked-dir'));
    await symlink(join(root, 'shared/rules.md'), join(dockhandDir, 'user-linked.md'));

    const { microagents, warnings } = await load();
    expect(warnings).toEqual([]);
    expect(microagents.slice(BUILTINS.length).map((m) => [m.name, m.content])).toEqual([
      ['user-linked', 'Shared rules.'],
      ['linked', 'Shared rules.'],
      ['agents', 'Claude file.'],
    ]);
  });

  it('warns when the repository instructions exceed the cap', async () => {
    await put(join(repo, 'AGENTS.md'), 'a'.repeat(REPOSITORY_INSTRUCTIONS_MAX_CHARS));
    await put(join(repo, '.cursorrules'), 'b'.repeat(10));
    const { warnings } = await load();
    expect(warnings).toEqual([
      `The repository instructions are ${REPOSITORY_INSTRUCTIONS_MAX_CHARS + 12} characters long; they are cut to ${REPOSITORY_INSTRUCTIONS_MAX_CHARS}.`,
    ]);
  });

  it('reads user folders through the injected reader', async () => {
    const read: string[] = [];
    const result = await loadMicroagents({
      files: new LocalSandboxFiles(),
      repoDir: null,
      userDirs: ['/virtual'],
      host: {
        list: async (dir) => (dir === '/virtual' ? [{ name: 'x.md', kind: 'file', size: 2 }] : null),
        read: async (path) => {
          read.push(path);
          return Buffer.from('X.');
        },
        join: hostFolders.join,
      },
    });
    expect(read).toEqual([join('/virtual', 'x.md')]);
    expect(byName(result.microagents, 'x')?.content).toBe('X.');
  });
});

describe('userMicroagentDirs', () => {
  it('lists ~/.dockhand/microagents, then ~/.openhands/microagents', () => {
    expect(userMicroagentDirs('/home/u')).toEqual([
      join('/home/u', '.dockhand', 'microagents'),
      join('/home/u', '.openhands', 'microagents'),
    ]);
  });
});
