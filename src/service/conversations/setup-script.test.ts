import { describe, expect, it } from 'vitest';
import { SandboxFileError, type SandboxFiles } from '../sandbox/files/sandbox-files';
import type { ShellSession } from '../sandbox/shell/shell-session';
import { MAX_REPOSITORY_SCRIPT_BYTES, runSetupScript, setupTimeoutFromEnv } from './setup-script';

describe('setupTimeoutFromEnv', () => {
  it('is 600 s unless DOCKHAND_SETUP_TIMEOUT_S names whole seconds from 1 to 600', () => {
    expect(setupTimeoutFromEnv({})).toBe(600);
    expect(setupTimeoutFromEnv({ DOCKHAND_SETUP_TIMEOUT_S: '2' })).toBe(2);
    for (const bad of ['0', '601', '1.5', 'soon'])
      expect(() => setupTimeoutFromEnv({ DOCKHAND_SETUP_TIMEOUT_S: bad })).toThrow(
        /DOCKHAND_SETUP_TIMEOUT_S/,
      );
  });
});

describe('runSetupScript', () => {
  it('neither shows nor runs a script over the size cap, and says so', async () => {
    const script = Buffer.alloc(MAX_REPOSITORY_SCRIPT_BYTES + 1, 'x');
    const files = {
      // Measured small, then grown: only the read's own count sees it.
      stat: async () => ({ type: 'file', size: 10 }),
      read: async (path: string, options?: { maxBytes?: number }) => {
        if (script.length > (options?.maxBytes ?? Infinity)) throw new SandboxFileError('too_large', path);
        return script;
      },
    } as unknown as SandboxFiles;
    const reports: [string, boolean][] = [];
    const asked: unknown[] = [];
    const outcome = await runSetupScript({
      shell: {} as ShellSession,
      files,
      repoDir: '/w/repo',
      stateDir: '/w/.dockhand',
      timeoutSeconds: 10,
      record: () => {
        throw new Error('nothing is recorded');
      },
      approve: async (code) => {
        asked.push(code);
        return 1;
      },
      report: (message, warning) => void reports.push([message, warning]),
    });
    expect(outcome).toEqual({ ran: false });
    expect(asked).toEqual([]);
    expect(reports).toEqual([
      [`.openhands/setup.sh is larger than ${MAX_REPOSITORY_SCRIPT_BYTES} bytes: it was not run.`, true],
    ]);
  });
});
