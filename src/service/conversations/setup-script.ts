import { createHash } from 'node:crypto';
import path from 'node:path';
import type { NewEvent, V0Event } from '../../shared/api/events';
import { SandboxFileError, type SandboxFiles } from '../sandbox/files/sandbox-files';
import { observationText, type ShellSession } from '../sandbox/shell/shell-session';
import { shellQuote } from '../sandbox/shell/shell-input';
import type { RepositoryCode } from './repository-code';

export const SETUP_SCRIPT = '.openhands/setup.sh';
export const SETUP_LOG = '/tmp/dockhand/setup.log';
/** Holds the digest of the setup script that last ran to the end, in the sandbox's state folder. */
export const SETUP_DONE_FILE = 'setup-done';

/** The sandbox's own state folder, beside the working dir on the workspace volume (`/workspace/.dockhand`). */
export function sandboxStateDir(workingDir: string): string {
  return path.posix.join(path.posix.dirname(workingDir), '.dockhand');
}
const DEFAULT_TIMEOUT_SECONDS = 600;

/** DOCKHAND_SETUP_TIMEOUT_S (whole seconds, 1-600), default 600. */
export function setupTimeoutFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.DOCKHAND_SETUP_TIMEOUT_S;
  if (raw === undefined || raw === '') return DEFAULT_TIMEOUT_SECONDS;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600)
    throw new Error(`DOCKHAND_SETUP_TIMEOUT_S must be a whole number of seconds from 1 to 600, not "${raw}"`);
  return seconds;
}

export interface SetupScriptDeps {
  shell: ShellSession;
  files: SandboxFiles;
  /** The repository (or working directory) holding `.openhands/setup.sh`. */
  repoDir: string;
  /** A folder of the sandbox that outlives its shells: where a finished run is remembered. */
  stateDir: string;
  timeoutSeconds: number;
  /** Appends an event to the conversation's log. */
  record(event: NewEvent): V0Event;
  /** Shows the script to the user; the id of the action it runs under, or null when it must not run. */
  approve(code: RepositoryCode): Promise<number | null>;
  /** Tells the user what is happening (`warning` when the script failed). */
  report(message: string, warning: boolean): void;
}

/** Whether the script ran to the end with exit code 0; otherwise the note the agent gets about it. */
export type SetupOutcome = { ran: false } | { ran: true; note: string | null };

/** The command that sources the script in the agent's shell, its output going to SETUP_LOG. */
export function setupCommand(script: string): string {
  return `mkdir -p ${path.posix.dirname(SETUP_LOG)} && source ${shellQuote(script)} > ${SETUP_LOG} 2>&1`;
}

/** The most of a repository's script (setup script, hook) that is read, shown to the user and run. */
export const MAX_REPOSITORY_SCRIPT_BYTES = 1024 * 1024;
/** The setup-done file holds a hex digest: anything longer is not one. */
const MAX_DONE_FILE_BYTES = 1024;

/** A file's bytes, at most `maxBytes` (`too_large` past them); null when no file is there. */
async function readOrNull(files: SandboxFiles, file: string, maxBytes: number): Promise<Buffer | null> {
  return (await files.stat(file))?.type === 'file' ? files.read(file, { maxBytes }) : null;
}

function isTooLarge(error: unknown): boolean {
  return error instanceof SandboxFileError && error.code === 'too_large';
}

/**
 * Step 6 of the start pipeline: once the user's say allows it (`approve`), sources `.openhands/setup.sh` in
 * the agent's shell (so what it exports stays set) as a hidden action the model never sees, with no no-output rule and one time limit; past it the command
 * is stopped (C-c, then the foreground process group killed). Output goes to SETUP_LOG. A run that succeeded
 * for the same script content is not repeated when the conversation starts again.
 */
export async function runSetupScript(deps: SetupScriptDeps): Promise<SetupOutcome> {
  const script = path.posix.join(deps.repoDir, SETUP_SCRIPT);
  let content: Buffer | null;
  try {
    content = await readOrNull(deps.files, script, MAX_REPOSITORY_SCRIPT_BYTES);
  } catch (error) {
    if (!isTooLarge(error)) throw error;
    deps.report(`${SETUP_SCRIPT} is larger than ${MAX_REPOSITORY_SCRIPT_BYTES} bytes: it was not run.`, true);
    return { ran: false };
  }
  if (!content) return { ran: false };
  const doneFile = path.posix.join(deps.stateDir, SETUP_DONE_FILE);
  const digest = createHash('sha256').update(content).digest('hex');
  const done = await readOrNull(deps.files, doneFile, MAX_DONE_FILE_BYTES).catch((error: unknown) =>
    isTooLarge(error) ? null : Promise.reject(error),
  );
  if (done?.toString('utf8') === digest) return { ran: false };

  const command = setupCommand(script);
  const actionId = await deps.approve({
    kind: 'setup_script',
    name: SETUP_SCRIPT,
    content: content.toString('utf8'),
    command,
  });
  if (actionId === null) return { ran: false };
  deps.report(`Running ${SETUP_SCRIPT}...`, false);
  let result = await deps.shell.execute({ command, timeout: deps.timeoutSeconds });
  const timedOut = result.outcome === 'hard_timeout';
  if (timedOut) result = (await deps.shell.interrupt()) ?? result;
  deps.record({
    source: 'environment',
    message: `Command \`${command}\` executed with exit code ${result.exit_code}.`,
    observation: 'run',
    content: observationText(result),
    extras: { command, hidden: true, metadata: result.metadata },
    success: !timedOut && result.exit_code === 0,
    cause: actionId,
  });
  if (!timedOut && result.exit_code === 0) {
    await deps.files.write(doneFile, digest);
    return { ran: true, note: null };
  }
  const note = timedOut
    ? `${SETUP_SCRIPT} did not finish within ${deps.timeoutSeconds} s and was stopped; see ${SETUP_LOG}.`
    : `${SETUP_SCRIPT} failed with exit code ${result.exit_code}; see ${SETUP_LOG}.`;
  deps.report(note, true);
  return { ran: true, note };
}
