import type { SandboxExec, SandboxWorkspace } from '../sandbox/sandbox-workspace';
import { CLONE_STATUS, CloneError } from './clone-errors';
import { CREDENTIAL_HELPER_NAME, CREDENTIAL_HELPER_SCRIPT, credentialSocketPath } from './credential-helper';

/** How git runs in one sandbox. */
export interface GitSandbox {
  /** Runs commands as the sandbox user. */
  exec: SandboxExec;
  /** Puts the credential helper where the sandbox user can run it; returns its path. */
  installCredentialHelper(): Promise<string>;
  /** Where the helper asks the sandbox's credential broker (`credential-broker.ts`) for a token. */
  credentialSocket: string;
  /**
   * Where the helper is registered: `global` is the sandbox user's own global git config (an isolated
   * sandbox's); `repository` is the clone's config, because an unisolated sandbox's global config is the
   * host user's.
   */
  helperScope: 'global' | 'repository';
}

/** Git in a sandbox's workspace: commands as the sandbox user, the helper out of the workspace's reach. */
export function gitSandbox(
  workspace: Pick<SandboxWorkspace, 'sandboxId' | 'exec' | 'installHelper' | 'isolated'>,
): GitSandbox {
  return {
    exec: (argv, options) => workspace.exec(argv, options),
    credentialSocket: credentialSocketPath(workspace.sandboxId),
    helperScope: workspace.isolated ? 'global' : 'repository',
    installCredentialHelper: () =>
      workspace.installHelper(CREDENTIAL_HELPER_NAME, CREDENTIAL_HELPER_SCRIPT).catch((error: unknown) => {
        throw new CloneError(
          CLONE_STATUS.error,
          `Installing the git credential helper failed: ${(error as Error).message}`,
        );
      }),
  };
}
