import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { isObjectStoreFile, objectStoreFiles } from '../../src/service/local-repository/object-store';
import { resolveLocalRepository } from '../../src/service/local-repository/resolve-repository';
import { snapshotArchive } from '../../src/service/local-repository/snapshot-archive';
import { makeLocalGitRepo, type LocalGitRepo } from '../support/local-git-repo';
import { makeHostileRepository, makeLinkedObjectsRepository, SECRET_TEXT } from './hostile-object-store';

const SHA1 = 'a'.repeat(40);
const SHA256 = 'b'.repeat(64);

/** The object ids of every object reachable in `repo`, as object-store paths of loose objects. */
function looseNames(repo: LocalGitRepo): string[] {
  const ids = repo.git('rev-list', '--objects', '--all').trim().split('\n');
  return ids.map((line) => line.slice(0, 40)).map((id) => `${id.slice(0, 2)}/${id.slice(2)}`);
}

/** Every entry of a copy's archive: its name and contents. */
async function archiveContents(repo: LocalGitRepo, maxBytes?: number): Promise<Map<string, string>> {
  const repository = await resolveLocalRepository(repo.root, null);
  const { archive } = await snapshotArchive(repository, {
    owner: { uid: 1000, gid: 1000 },
    progress: () => undefined,
    notice: () => undefined,
    ...(maxBytes === undefined ? {} : { maxBytes }),
  });
  const contents = new Map<string, string>();
  const extract = tar.extract();
  archive.pipe(extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    contents.set(entry.header.name, Buffer.concat(chunks).toString('utf8'));
  }
  return contents;
}

describe('isObjectStoreFile', () => {
  it('accepts loose objects and pack files of SHA-1 and SHA-256 repositories', () => {
    for (const name of [
      `aa/${SHA1.slice(2)}`,
      `bb/${SHA256.slice(2)}`,
      ...['pack', 'idx', 'rev', 'bitmap', 'mtimes', 'promisor'].map((ext) => `pack/pack-${SHA1}.${ext}`),
      `pack/pack-${SHA256}.pack`,
    ])
      expect(isObjectStoreFile(name), name).toBe(true);
  });

  it('refuses everything else: info files, temporary and keep files, other names, other folders', () => {
    for (const name of [
      'id_rsa',
      'credentials',
      'info/alternates',
      'info/packs',
      'info/commit-graph',
      'pack/multi-pack-index',
      `pack/pack-${SHA1}.keep`,
      `pack/tmp_pack_${SHA1}`,
      `pack/pack-${SHA1.slice(1)}.pack`,
      `pack/pack-${SHA1}.pack.bak`,
      `pack/sub/pack-${SHA1}.pack`,
      `aa/${SHA1.slice(3)}`,
      `aa/${SHA1.slice(1)}`,
      `AA/${SHA1.slice(2).toUpperCase()}`,
      `zz/${SHA1.slice(2)}`,
      `aa/../${SHA1.slice(2)}`,
      `aa/bb/${SHA1.slice(4)}`,
      `/aa/${SHA1.slice(2)}`,
      `aa/${SHA1.slice(2)}\n`,
    ])
      expect(isObjectStoreFile(name), JSON.stringify(name)).toBe(false);
  });
});

describe('the object-store files a copy takes', () => {
  it('takes the repository’s own objects only: no alternate that is not a repository’s, no link at any level', async () => {
    const { repo, secrets } = makeHostileRepository();
    const notices: string[] = [];
    const files = await objectStoreFiles(
      path.join(repo.root, '.git'),
      (message) => void notices.push(message),
    );
    expect(files.map((file) => file.relative).sort()).toEqual(looseNames(repo).sort());
    expect(files.every((file) => file.source.startsWith(`${repo.root}/.git/objects/`))).toBe(true);
    expect(notices.join('\n')).toContain('"../../../secret-folder"');
    expect(notices.join('\n')).toContain('not the objects folder of a git repository');
    expect(notices.join('\n')).toMatch(/symbolic links .*: .*ab.*pack|symbolic links .*: .*pack.*ab/);
    const copied = [...(await archiveContents(repo)).values()].join('\n');
    expect(copied).not.toContain(SECRET_TEXT);
    expect(secrets).toContain('secret-folder');
  });

  it('refuses a repository whose objects folder is a symbolic link', async () => {
    const { repo } = makeLinkedObjectsRepository();
    expect(repo.git('log', '--format=%s')).toBe('First commit\n');
    await expect(objectStoreFiles(path.join(repo.root, '.git'), () => undefined)).rejects.toThrow(
      `${repo.root}/.git/objects is not a folder (a symbolic link is not followed)`,
    );
  });

  it('borrows from real repositories as git does: `clone --shared` chains and relative alternates', async () => {
    const base = makeLocalGitRepo({ 'base.txt': 'base\n' }, 'base');
    const middle = `${path.dirname(base.root)}/middle`;
    const top = `${path.dirname(base.root)}/top`;
    base.git('clone', '-q', '--shared', base.root, middle);
    base.git('-C', middle, 'commit', '-q', '--allow-empty', '-m', 'Middle commit');
    base.git('clone', '-q', '--shared', middle, top);
    base.git('-C', top, 'commit', '-q', '--allow-empty', '-m', 'Top commit');
    // Relative to the objects folder, as git reads it.
    const relative = path.relative(`${top}/.git/objects`, `${middle}/.git/objects`);
    writeFileSync(`${top}/.git/objects/info/alternates`, `# borrowed\n${relative}\n`);
    const notices: string[] = [];
    const files = await objectStoreFiles(`${top}/.git`, (message) => void notices.push(message));
    const reachable = base.git('-C', top, 'rev-list', '--objects', '--all').trim().split('\n');
    const names = new Set(files.map((file) => file.relative));
    for (const id of reachable.map((line) => line.slice(0, 40)))
      expect(names.has(`${id.slice(0, 2)}/${id.slice(2)}`), id).toBe(true);
    for (const folder of [base.root, middle, top])
      expect(
        files.some((file) => file.source.startsWith(`${folder}/.git/objects/`)),
        folder,
      ).toBe(true);
    expect(notices).toEqual([]);
  });

  it('leaves out a `shallow` file that is a link, and one that is not a list of commit ids', async () => {
    const { repo, secrets } = makeHostileRepository();
    symlinkSync(`${secrets}/id_rsa`, `${repo.root}/.git/shallow`);
    expect((await archiveContents(repo)).has('.git/shallow')).toBe(false);
    const other = makeLocalGitRepo({ 'a.txt': 'a\n' });
    writeFileSync(`${other.root}/.git/shallow`, 'not an id\n');
    expect((await archiveContents(other)).has('.git/shallow')).toBe(false);
    const head = other.git('rev-parse', 'HEAD');
    writeFileSync(`${other.root}/.git/shallow`, head);
    expect((await archiveContents(other)).get('.git/shallow')).toBe(head);
  });

  it('refuses a copy over the size limit, naming its size and the limit', async () => {
    const repo = makeLocalGitRepo({ 'big.txt': 'x'.repeat(8 * 1024) });
    await expect(archiveContents(repo, 4 * 1024)).rejects.toThrow(
      new RegExp(
        `^${repo.root} is \\d+(\\.\\d)? KB \\(history and working tree\\), more than the 4 KB a conversation can copy$`,
      ),
    );
  });
});
