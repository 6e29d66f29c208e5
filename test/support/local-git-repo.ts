import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A git repository on this machine made by a test, with a fixed identity and no global config. */
export interface LocalGitRepo {
  root: string;
  git(...args: string[]): string;
  write(file: string, text: string): void;
  read(file: string): string;
  /** Every file of the working tree and of `.git`, with its content, to tell whether anything changed. */
  fingerprint(): string;
}

const ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'User',
  GIT_AUTHOR_EMAIL: 'user@example.invalid',
  GIT_COMMITTER_NAME: 'User',
  GIT_COMMITTER_EMAIL: 'user@example.invalid',
};

function walk(folder: string, out: string[]): void {
  for (const name of readdirSync(folder).sort()) {
    const file = path.join(folder, name);
    const info = lstatSync(file);
    if (info.isDirectory()) walk(file, out);
    else out.push(`${file} ${info.isFile() ? readFileSync(file).toString('base64') : 'link'}`);
  }
}

/** A new repository with `files` committed on `main` (each key a path, each value its text). */
export function makeLocalGitRepo(files: Record<string, string>, name = 'project'): LocalGitRepo {
  const root = path.join(realpathSync(mkdtempSync(path.join(tmpdir(), 'dockhand-local-'))), name);
  mkdirSync(root);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', root, ...args], { env: ENV, encoding: 'utf8' });
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  git('init', '-q', '-b', 'main');
  for (const [file, text] of Object.entries(files)) write(file, text);
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', 'First commit');
  return {
    root,
    git,
    write,
    read: (file) => readFileSync(path.join(root, file), 'utf8'),
    fingerprint: () => {
      const out: string[] = [];
      walk(root, out);
      return out.join('\n');
    },
  };
}
