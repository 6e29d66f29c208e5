import type { GitSandbox } from './git-sandbox';

/** Interpreter caches: never the agent's work, so never a change to review or to bring back. */
export const SANDBOX_GIT_EXCLUDES = ['__pycache__/', '*.py[cod]'];

// As the sandbox user, with the patterns as arguments: writes them to a file of its home and makes that
// core.excludesFile of its global config, unless the image already set one.
const EXCLUDES_SCRIPT = `git config --global --get core.excludesFile >/dev/null && exit 0
file="$HOME/.config/git/dockhand-excludes"
mkdir -p "$HOME/.config/git" && printf '%s\\n' "$@" > "$file" && git config --global core.excludesFile "$file"`;

/**
 * Makes git in the sandbox ignore SANDBOX_GIT_EXCLUDES in every repository (changes, reviews, `git add -A`).
 * Only where the global config is the sandbox user's own (containers): on the process sandbox it is the host
 * user's, which Dockhand leaves alone. Throws when git fails.
 */
export async function configureGitExcludes(sandbox: GitSandbox): Promise<void> {
  if (sandbox.helperScope !== 'global') return;
  const result = await sandbox.exec(['sh', '-c', EXCLUDES_SCRIPT, 'sh', ...SANDBOX_GIT_EXCLUDES], {
    env: { LC_ALL: 'C' },
  });
  if (result.exitCode !== 0) throw new Error(`git config failed: ${result.stderr.trim()}`);
}
