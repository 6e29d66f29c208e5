import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type Docker from 'dockerode';
import { CLONE_STATUS, CloneError, gitReason } from './clone-errors';
import { CONTAINER_HELPER_PATH, CREDENTIAL_HELPER_SCRIPT } from './credential-helper';
import { dockerExec, processExec, type SandboxExec } from './sandbox-exec';

/** How git runs in one sandbox. */
export interface GitSandbox {
  /** Runs commands as the sandbox user. */
  exec: SandboxExec;
  /** Puts the credential helper where the sandbox user can run it; returns its path. */
  installCredentialHelper(): Promise<string>;
  /**
   * Where the helper is registered: `global` is the sandbox user's own global git config (a container's);
   * `repository` is the clone's config, because a process sandbox's global config is the host user's.
   */
  helperScope: 'global' | 'repository';
}

// Run as root: writes the helper ($1) where only root can change it.
const INSTALL_SCRIPT = `set -e
mkdir -p "$(dirname "${CONTAINER_HELPER_PATH}")"
printf '%s' "$1" > "${CONTAINER_HELPER_PATH}"
chmod 0755 "${CONTAINER_HELPER_PATH}"`;

/** A Docker sandbox: commands as `user`, the helper installed as root in /opt/dockhand/bin. */
export function dockerGitSandbox(container: Docker.Container, user: string): GitSandbox {
  const asRoot = dockerExec(container, 'root');
  return {
    exec: dockerExec(container, user),
    helperScope: 'global',
    installCredentialHelper: async () => {
      const result = await asRoot(['sh', '-c', INSTALL_SCRIPT, 'sh', CREDENTIAL_HELPER_SCRIPT]);
      if (result.exitCode !== 0) {
        throw new CloneError(
          CLONE_STATUS.error,
          `Installing the git credential helper failed: ${gitReason(result, null)}`,
        );
      }
      return CONTAINER_HELPER_PATH;
    },
  };
}

/**
 * A process sandbox: commands on the host with `env`, the helper in `helperDir`, a folder outside the
 * workspace that only the host user can read.
 */
export function processGitSandbox(options: { env: NodeJS.ProcessEnv; helperDir: string }): GitSandbox {
  return {
    exec: processExec(options.env),
    helperScope: 'repository',
    installCredentialHelper: async () => {
      const helperPath = path.join(options.helperDir, 'git-credential-dockhand');
      await mkdir(options.helperDir, { recursive: true, mode: 0o700 });
      await chmod(options.helperDir, 0o700);
      await writeFile(helperPath, CREDENTIAL_HELPER_SCRIPT, { mode: 0o700 });
      await chmod(helperPath, 0o700);
      return helperPath;
    },
  };
}
