/**
 * The rules a repository path must pass before Dockhand writes or commits it: git's own `verify_path` with
 * `core.protectNTFS` and `core.protectHFS` on, on every platform (a repository written here may be checked
 * out on Windows or macOS), and stricter where git depends on the platform: a backslash or a drive prefix is
 * never accepted. Ported from git's `read-cache.c` (`verify_path`, `verify_dotfile`) and `path.c`/`utf8.c`
 * (`is_ntfs_dotgit`, `is_hfs_dotgit` and their `.gitmodules`-style siblings).
 */

/** Code points HFS+ ignores when it compares names, so `.g\u200cit` is `.git` there. */
const HFS_IGNORED = new Set([
  0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x206a, 0x206b, 0x206c, 0x206d,
  0x206e, 0x206f, 0xfeff,
]);

/** Files git reads from the working tree, refused as links (git's fsck refuses them as links too). */
const DOTFILES = [
  { name: 'gitmodules', shortPrefix: 'gi7eba' },
  { name: 'gitattributes', shortPrefix: 'gi7d29' },
  { name: 'gitignore', shortPrefix: 'gi250a' },
  { name: 'mailmap', shortPrefix: 'maba30' },
];

const lower = (char: string | undefined) => (char ?? '').toLowerCase();

/** Whether `name` from `from` on holds only spaces and periods until its end or a `:` (an NTFS stream). */
function onlySpacesAndPeriods(name: string, from: number, stopAtSeparator: boolean): boolean {
  for (let index = from; index < name.length; index++) {
    const char = name[index];
    if (char === ':' || (stopAtSeparator && (char === '/' || char === '\\'))) return true;
    if (char !== ' ' && char !== '.') return false;
  }
  return true;
}

/** git's `is_ntfs_dotgit`: `.git` or `git~1`, any case, followed by spaces/periods, `:…` or a separator. */
export function isNtfsDotGit(component: string): boolean {
  const start = lower(component.slice(0, 5));
  if (start.startsWith('.git')) return onlySpacesAndPeriods(component, 4, true);
  if (start === 'git~1') return onlySpacesAndPeriods(component, 5, true);
  return false;
}

/** git's `is_ntfs_dot_generic`: `.<name>` or one of its NTFS short names (`GITMOD~1`, `gi7eba~1`, …). */
function isNtfsDotFile(component: string, name: string, shortPrefix: string): boolean {
  if (component[0] === '.' && lower(component.slice(1, 1 + name.length)) === name)
    return onlySpacesAndPeriods(component, 1 + name.length, false);
  if (
    lower(component.slice(0, 6)) === name.slice(0, 6) &&
    component[6] === '~' &&
    /[1-4]/.test(component[7] ?? '')
  )
    return onlySpacesAndPeriods(component, 8, false);
  // The fall-back short name: up to six characters of the hash-like prefix, `~`, a digit 1-9, digits.
  let sawTilde = false;
  for (let index = 0; index < 8; index++) {
    const char = component[index];
    if (char === undefined) return false;
    if (sawTilde) {
      if (!/[0-9]/.test(char)) return false;
    } else if (char === '~') {
      index++;
      if (!/[1-9]/.test(component[index] ?? '')) return false;
      sawTilde = true;
    } else if (index >= 6 || char.charCodeAt(0) >= 0x80 || lower(char) !== shortPrefix[index]) {
      return false;
    }
  }
  return onlySpacesAndPeriods(component, 8, false);
}

/** `component` as HFS+ compares it: ignorable code points left out, ASCII letters lower-cased. */
function hfsFolded(component: string): string {
  let folded = '';
  for (const char of component) {
    if (!HFS_IGNORED.has(char.codePointAt(0) ?? 0)) folded += char.length === 1 ? lower(char) : char;
  }
  return folded;
}

/** git's `is_hfs_dotgit` and siblings: `.git` (or `.<name>`) once HFS+ has ignored what it ignores. */
function isHfsDot(component: string, name: string): boolean {
  return hfsFolded(component) === `.${name}`;
}

/** Whether a path component is refused: empty, `.`, `..`, a `.git` (for a link, a `.gitmodules`…) spelling. */
function refusedComponent(component: string, link: boolean): boolean {
  if (component === '' || component === '.' || component === '..') return true;
  if (isNtfsDotGit(component) || isHfsDot(component, 'git')) return true;
  return (
    link &&
    DOTFILES.some(
      ({ name, shortPrefix }) => isNtfsDotFile(component, name, shortPrefix) || isHfsDot(component, name),
    )
  );
}

/**
 * Whether a repository path may be written under a working tree or committed: relative, `/`-separated,
 * no empty, `.` or `..` component, no backslash, NUL or drive prefix, and no component any file system
 * could take for `.git` (`.GIT`, `GIT~1`, `.git.`, `.git `, `.git::$INDEX_ALLOCATION`, `.g\u200cit`, …).
 * A symbolic link (`link`) may not be named as `.gitmodules`, `.gitattributes`, `.gitignore` or `.mailmap`
 * either. The same rules as git's `verify_path` with `core.protectNTFS` and `core.protectHFS`.
 */
export function isSafeRepositoryPath(relative: string, options: { link?: boolean } = {}): boolean {
  if (!relative || relative.includes('\0') || relative.includes('\\') || /^[a-zA-Z]:/.test(relative))
    return false;
  return relative.split('/').every((component) => !refusedComponent(component, options.link === true));
}
