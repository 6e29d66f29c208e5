import type { GitProvider } from '../../shared/api/settings';
import { type ExecResult, TIMED_OUT_EXIT_CODE } from '../sandbox/sandbox-workspace';
import { PROVIDER_NAMES } from './provider-api';

/** The runtime status ids a failed clone reports (api-contract §14). */
export const CLONE_STATUS = {
  authentication: 'STATUS$GIT_PROVIDER_AUTHENTICATION_ERROR',
  error: 'STATUS$ERROR',
} as const;

/** Preparing the repository failed: the conversation stops with `statusId` and this message. */
export class CloneError extends Error {
  constructor(
    readonly statusId: string,
    message: string,
  ) {
    super(message);
    this.name = 'CloneError';
  }
}

export interface CloneAttempt {
  repository: string;
  provider: GitProvider;
  host: string;
  branch: string | null;
  /** The token the clone ran with, or null for an anonymous clone. */
  token: string | null;
  timeoutSeconds: number;
}

const NOT_FOUND = 'Repository not found, or the token has no access';

/** The HTTP status git reported for the remote, if it got that far. */
function httpStatus(stderr: string): number | null {
  const reported = /The requested URL returned error: (\d{3})/.exec(stderr);
  if (reported?.[1]) return Number(reported[1]);
  if (/Authentication failed for|could not read (Username|Password)/.test(stderr)) return 401;
  if (/fatal: repository '[^']*' not found/.test(stderr)) return 404;
  return null;
}

/** What the user is told about a failed `git clone`, from git's own (C locale) error output. */
export function cloneFailure(result: ExecResult, attempt: CloneAttempt): CloneError {
  const { stderr } = result;
  const { repository, host, branch, token } = attempt;
  if (result.exitCode === TIMED_OUT_EXIT_CODE) {
    const minutes = Math.round(attempt.timeoutSeconds / 60);
    return new CloneError(
      CLONE_STATUS.error,
      `Cloning ${repository} did not finish within ${minutes} minutes`,
    );
  }
  if (branch && /Remote branch .* not found in upstream/.test(stderr)) {
    return new CloneError(CLONE_STATUS.error, `Branch '${branch}' does not exist in ${repository}`);
  }
  const status = httpStatus(stderr);
  if (status === 401 || status === 403) {
    return new CloneError(
      CLONE_STATUS.authentication,
      token ? `The ${PROVIDER_NAMES[attempt.provider]} token was rejected for ${repository}` : NOT_FOUND,
    );
  }
  if (status === 404) return new CloneError(CLONE_STATUS.error, NOT_FOUND);
  // Without an HTTP status, "unable to access" is a transport failure: DNS, connect, TLS, proxy.
  if (status === null && /unable to access '/.test(stderr)) {
    return new CloneError(CLONE_STATUS.error, `Cannot reach ${host} from the sandbox`);
  }
  return new CloneError(CLONE_STATUS.error, `Cloning ${repository} failed: ${gitReason(result, token)}`);
}

/** git's last fatal line (else its last line of output), with the token masked just in case. */
export function gitReason(result: ExecResult, token: string | null): string {
  const lines = `${result.stderr}\n${result.stdout}`.split('\n').map((line) => line.trim());
  const reason =
    lines
      .findLast((line) => line.startsWith('fatal:'))
      ?.slice('fatal:'.length)
      .trim() ??
    lines.findLast((line) => line !== '') ??
    `exit code ${result.exitCode}`;
  return token ? reason.split(token).join('***') : reason;
}
