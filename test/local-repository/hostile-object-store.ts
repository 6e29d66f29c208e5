import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeLocalGitRepo, type LocalGitRepo } from '../support/local-git-repo';

/** What a secret file holds: a test that finds this text in a copy found a leak. */
export const SECRET_TEXT = 'SECRET-OUTSIDE-THE-REPOSITORY';

/** A loose object's name and a pack's, for secret files that look like object-store files. */
export const OBJECT_LIKE_NAMES = [
  `ab/${'c'.repeat(38)}`,
  `pack/pack-${'d'.repeat(40)}.pack`,
  `pack/pack-${'d'.repeat(40)}.promisor`,
];

/** Every secret file's name below the secret folder. */
export const SECRET_NAMES = ['id_rsa', 'credentials', ...OBJECT_LIKE_NAMES];

export interface HostileRepository {
  repo: LocalGitRepo;
  /** `<repository's parent>/secret-folder`, with `id_rsa`, `credentials` and object-like files. */
  secrets: string;
}

/** A repository with one committed file (its objects all loose) and the secret folder beside it. */
function repositoryBesideSecrets(): HostileRepository {
  const repo = makeLocalGitRepo({ 'a.txt': 'a\n' });
  const secrets = path.join(path.dirname(repo.root), 'secret-folder');
  for (const name of SECRET_NAMES) {
    mkdirSync(path.dirname(path.join(secrets, name)), { recursive: true });
    writeFileSync(path.join(secrets, name), `${SECRET_TEXT} ${name}\n`);
  }
  return { repo, secrets };
}

/**
 * A repository whose object store points at the secret folder beside it: `objects/info/alternates` names
 * `../../../secret-folder`, and the `pack` folder, a loose object folder and one loose object are symbolic
 * links into it. Git on this machine still reads it.
 */
export function makeHostileRepository(): HostileRepository {
  const hostile = repositoryBesideSecrets();
  const { repo, secrets } = hostile;
  const objects = path.join(repo.root, '.git', 'objects');
  writeFileSync(path.join(objects, 'info', 'alternates'), '../../../secret-folder\n');
  rmSync(path.join(objects, 'pack'), { recursive: true, force: true });
  symlinkSync(path.join(secrets, 'pack'), path.join(objects, 'pack'));
  symlinkSync(path.join(secrets, 'ab'), path.join(objects, 'ab'));
  const own = repo.git('rev-parse', 'HEAD').trim();
  symlinkSync(path.join(secrets, 'id_rsa'), path.join(objects, own.slice(0, 2), 'f'.repeat(38)));
  return hostile;
}

/** A repository whose `.git/objects` is a symbolic link to its object store, moved into the secret folder. */
export function makeLinkedObjectsRepository(): HostileRepository {
  const hostile = repositoryBesideSecrets();
  const objects = path.join(hostile.repo.root, '.git', 'objects');
  const moved = path.join(hostile.secrets, 'objects');
  renameSync(objects, moved);
  symlinkSync(moved, objects);
  return hostile;
}
