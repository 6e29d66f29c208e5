/**
 * A shell fragment, run in a repository in the sandbox, that sets `$index` to a temporary index holding the
 * working tree as it is (tracked and untracked, not ignored). It starts from a copy of the real index, so
 * unchanged files are not read again, and it leaves the agent's own index alone. The caller removes it.
 */
export const WORKING_TREE_INDEX = `index=$(mktemp)
real_index=$(git rev-parse --git-path index)
if [ -f "$real_index" ]; then cp "$real_index" "$index"; else rm -f "$index"; fi
GIT_INDEX_FILE=$index git add -A`;

// The changes from the commit $2 to the working tree of the repository $1, as `git diff --name-status -z`.
export const CHANGES_SINCE_SCRIPT = `set -e
cd "$1"
${WORKING_TREE_INDEX}
GIT_INDEX_FILE=$index git diff-index --cached --no-renames --name-status -z "$2" --
rm -f "$index"`;

/** The entries of `git diff --name-status -z` (no renames): status letter, then the path. */
export function parseNameStatus(output: string): { status: string; path: string }[] {
  const fields = output.split('\0');
  const entries: { status: string; path: string }[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const status = fields[index];
    const path = fields[index + 1];
    if (status && path) entries.push({ status: status.slice(0, 1), path });
  }
  return entries;
}
