import type { SandboxExec } from '../sandbox/sandbox-workspace';

export const PRE_COMMIT_SCRIPT = '.openhands/pre-commit.sh';
const WRAPPER_MARK = '# dockhand-pre-commit-wrapper';

/** The hook Dockhand installs: the repository's previous hook (now `pre-commit.local`), then the script. */
export const PRE_COMMIT_WRAPPER = `#!/bin/sh
${WRAPPER_MARK}
# Runs the previous pre-commit hook, if any, then ${PRE_COMMIT_SCRIPT}.
hooks_dir=$(dirname "$0")
if [ -x "$hooks_dir/pre-commit.local" ]; then
  "$hooks_dir/pre-commit.local" "$@" || exit $?
fi
exec "$(git rev-parse --show-toplevel)/${PRE_COMMIT_SCRIPT}" "$@"
`;

// $1 = repository, $2 = wrapper, $3 = "check" to only look. Prints absent, present, missing (check) or installed.
const INSTALL_SCRIPT = `set -e
cd "$1"
[ -f ${PRE_COMMIT_SCRIPT} ] || { echo absent; exit 0; }
chmod +x ${PRE_COMMIT_SCRIPT}
hooks=$(git rev-parse --path-format=absolute --git-path hooks 2>/dev/null || git rev-parse --git-path hooks)
mkdir -p "$hooks"
hook="$hooks/pre-commit"
if [ -f "$hook" ] && grep -qx '${WRAPPER_MARK}' "$hook"; then echo present; exit 0; fi
[ "$3" != check ] || { echo missing; exit 0; }
if [ -e "$hook" ] || [ -L "$hook" ]; then mv -f "$hook" "$hooks/pre-commit.local"; fi
printf '%s' "$2" > "$hook"
chmod 755 "$hook"
echo installed`;

export type HookOutcome = 'absent' | 'present' | 'missing' | 'installed';

export class GitHookError extends Error {}

async function runInstallScript(exec: SandboxExec, repoDir: string, mode: 'check' | 'install') {
  const result = await exec(['sh', '-c', INSTALL_SCRIPT, 'sh', repoDir, PRE_COMMIT_WRAPPER, mode], {
    timeout: 60,
  });
  const outcome = result.stdout.trim();
  if (result.exitCode !== 0 || !['absent', 'present', 'missing', 'installed'].includes(outcome)) {
    throw new GitHookError(
      `Installing the ${PRE_COMMIT_SCRIPT} hook failed: ${(result.stderr || result.stdout).trim()}`,
    );
  }
  return outcome as HookOutcome;
}

/** Whether the repository has `.openhands/pre-commit.sh` (`absent`) and its wrapper is installed (`present`). */
export function preCommitHookState(exec: SandboxExec, repoDir: string): Promise<HookOutcome> {
  return runInstallScript(exec, repoDir, 'check');
}

/**
 * Step 7 of the start pipeline, once the user's say allows it: with `.openhands/pre-commit.sh` in the
 * repository, installs the wrapper as its pre-commit hook, keeping a hook that was there as
 * `pre-commit.local` (run first). An installed wrapper is left as it is, so a restart changes nothing.
 */
export function installPreCommitHook(exec: SandboxExec, repoDir: string): Promise<HookOutcome> {
  return runInstallScript(exec, repoDir, 'install');
}
