import { describe, expect, it } from 'vitest';
import { type CloneAttempt, cloneFailure } from './clone-errors';

const attempt: CloneAttempt = {
  repository: 'octo/app',
  provider: 'github',
  host: 'github.com',
  branch: null,
  token: 'ghp_secret',
  timeoutSeconds: 900,
};

/** The failure for git's stderr (as git 2.39 prints it in the C locale) and exit code 128. */
function failure(stderr: string, changes: Partial<CloneAttempt> = {}, exitCode = 128) {
  const error = cloneFailure({ exitCode, stdout: '', stderr, truncated: false }, { ...attempt, ...changes });
  return { statusId: error.statusId, message: error.message };
}

const AUTH = 'STATUS$GIT_PROVIDER_AUTHENTICATION_ERROR';

describe('cloneFailure', () => {
  it('reports a rejected token (401 and 403) as an authentication error', () => {
    const rejected = { statusId: AUTH, message: 'The GitHub token was rejected for octo/app' };
    expect(failure("fatal: Authentication failed for 'https://github.com/octo/app.git/'\n")).toEqual(
      rejected,
    );
    expect(
      failure(
        "remote: Permission to octo/app.git denied to dock.\nfatal: unable to access 'https://github.com/octo/app.git/': The requested URL returned error: 403\n",
      ),
    ).toEqual(rejected);
    expect(
      failure("fatal: Authentication failed for 'https://gitlab.com/g/s/app.git/'\n", {
        provider: 'gitlab',
        repository: 'g/s/app',
      }),
    ).toEqual({ statusId: AUTH, message: 'The GitLab token was rejected for g/s/app' });
  });

  it('reports a repository that asks for credentials when none were given as not found', () => {
    expect(
      failure("fatal: could not read Username for 'https://github.com': terminal prompts disabled\n", {
        token: null,
      }),
    ).toEqual({ statusId: AUTH, message: 'Repository not found, or the token has no access' });
  });

  it('reports a missing repository', () => {
    expect(
      failure(
        "remote: Repository not found.\nfatal: repository 'https://github.com/octo/app.git/' not found\n",
      ),
    ).toEqual({ statusId: 'STATUS$ERROR', message: 'Repository not found, or the token has no access' });
    expect(
      failure(
        "fatal: unable to access 'https://github.com/octo/app.git/': The requested URL returned error: 404\n",
      ),
    ).toEqual({ statusId: 'STATUS$ERROR', message: 'Repository not found, or the token has no access' });
  });

  it('reports a missing branch', () => {
    expect(failure('fatal: Remote branch nope not found in upstream origin\n', { branch: 'nope' })).toEqual({
      statusId: 'STATUS$ERROR',
      message: "Branch 'nope' does not exist in octo/app",
    });
  });

  it('reports network failures as an unreachable host', () => {
    const unreachable = { statusId: 'STATUS$ERROR', message: 'Cannot reach github.com from the sandbox' };
    for (const reason of [
      'Could not resolve host: github.com',
      "Failed to connect to github.com port 443 after 3 ms: Couldn't connect to server",
      'SSL certificate problem: self-signed certificate in certificate chain',
    ]) {
      expect(failure(`fatal: unable to access 'https://github.com/octo/app.git/': ${reason}\n`)).toEqual(
        unreachable,
      );
    }
  });

  it('reports a clone that ran out of time', () => {
    expect(failure('', {}, 124)).toEqual({
      statusId: 'STATUS$ERROR',
      message: 'Cloning octo/app did not finish within 15 minutes',
    });
  });

  it('passes any other failure on with git’s reason, the token masked', () => {
    expect(
      failure(
        "Cloning into 'app'...\nfatal: destination path '/workspace/project/app' already exists and is not an empty directory.\n",
      ),
    ).toEqual({
      statusId: 'STATUS$ERROR',
      message:
        "Cloning octo/app failed: destination path '/workspace/project/app' already exists and is not an empty directory.",
    });
    expect(failure('error: odd failure mentioning ghp_secret\n').message).toBe(
      'Cloning octo/app failed: error: odd failure mentioning ***',
    );
  });
});
