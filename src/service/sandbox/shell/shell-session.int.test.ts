import Docker from 'dockerode';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DockerSandboxFiles } from '../files/docker-files';
import { LocalSandboxFiles } from '../files/local-files';
import type { SandboxFiles } from '../files/sandbox-files';
import { DockerShellTransport } from './docker-transport';
import {
  CONTINUED_PREFIX,
  NO_COMMAND_FOR_INPUT,
  NO_COMMAND_FOR_LOGS,
  STOPPED_SUFFIX,
  completedSuffix,
  hardTimeoutSuffix,
  noChangeSuffix,
  refusedSuffix,
  restartedPrefix,
  shellExitedSuffix,
} from './messages';
import { hostBaseEnvironment } from '../process/host-environment';
import { ProcessShellTransport } from './process-transport';
import { processTree } from './process-tree';
import { ShellSession, observationText, type ShellSessionOptions } from './shell-session';
import {
  dockerUnavailableReason,
  removeContainer,
  startTestContainer,
} from '../../../../test/support/test-sandboxes';
import type { ShellTransport } from './transport';

interface Sandbox {
  transport: ShellTransport;
  files: SandboxFiles;
  remove(): Promise<void>;
}

interface TransportKind {
  name: string;
  skipReason: string | null;
  create(): Promise<Sandbox>;
}

const docker = new Docker();
const dockerSkipReason = await dockerUnavailableReason(docker);
const processSkipReason = process.platform === 'linux' ? null : 'the process transport needs Linux';

const kinds: TransportKind[] = [
  {
    name: 'docker',
    skipReason: dockerSkipReason,
    create: async () => {
      const container = await startTestContainer(docker, 'shell');
      return {
        transport: new DockerShellTransport(container),
        files: new DockerSandboxFiles(container),
        remove: () => removeContainer(container),
      };
    },
  },
  {
    name: 'process',
    skipReason: processSkipReason,
    create: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'dockhand-shell-'));
      return {
        transport: new ProcessShellTransport({
          workingDir: dir,
          env: hostBaseEnvironment(process.env),
          stateDir: join(dir, '.dockhand'),
        }),
        files: new LocalSandboxFiles(),
        remove: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
];

const TEST_LIMITS: ShellSessionOptions = {
  noChangeTimeoutMs: 10_000,
  hardTimeoutMs: 30_000,
  interruptGraceMs: 500,
  killGraceMs: 500,
};

/** Polls until `check` holds (10 s at most). */
async function waitUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await check()) return;
    await delay(100);
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** Waits for a process whose command line matches `pattern` (a pgrep regex written so it cannot match itself). */
function waitForProcess(transport: ShellTransport, pattern: string): Promise<void> {
  return waitUntil(pattern, async () => (await transport.run(`pgrep -f '${pattern}'`)).exitCode === 0);
}

describe.each(kinds)('ShellSession over the $name transport', (kind) => {
  if (kind.skipReason) console.warn(`Skipping the ${kind.name} shell tests: ${kind.skipReason}`);
  const test = it.skipIf(kind.skipReason !== null);
  const sandboxes: Sandbox[] = [];
  const sessions: ShellSession[] = [];

  async function open(
    options: ShellSessionOptions = {},
  ): Promise<{ session: ShellSession; sandbox: Sandbox }> {
    const sandbox = await kind.create();
    sandboxes.push(sandbox);
    const session = new ShellSession(sandbox.transport, { ...TEST_LIMITS, ...options });
    sessions.push(session);
    return { session, sandbox };
  }

  async function cleanUp(): Promise<void> {
    const closing = sessions.splice(0).map((session) => session.close().catch(() => undefined));
    await Promise.all(closing);
    await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.remove()));
  }

  afterEach(cleanUp);
  afterAll(cleanUp);

  test('reports exit codes with the exact suffix', async () => {
    const { session } = await open();
    const ok = await session.execute({ command: 'true' });
    expect(ok).toMatchObject({ outcome: 'completed', exit_code: 0, output: '' });
    expect(ok.metadata.suffix).toBe(completedSuffix(0, null));
    expect((await session.execute({ command: 'false' })).exit_code).toBe(1);
    const failed = await session.execute({ command: '(exit 42)' });
    expect(failed.exit_code).toBe(42);
    expect(failed.metadata.suffix).toBe('\n[The command completed with exit code 42.]');
  });

  test('keeps the working directory and exported variables between commands', async () => {
    const { session } = await open();
    await session.execute({ command: 'cd /tmp && export GREETING="hello there"' });
    const result = await session.execute({ command: 'pwd; echo "$GREETING"' });
    expect(result.output).toBe('/tmp\nhello there');
    expect(result.metadata.working_dir).toBe('/tmp');
    expect(observationText(result)).toContain('\n[Current working directory: /tmp]');
    expect(observationText(result)).toMatch(/\n\[Python interpreter: \S*python\S*\]$/);
    expect(result.metadata.pid).toBeGreaterThan(0);
    expect(result.metadata.username).toBeTruthy();
  });

  test('keeps functions between commands', async () => {
    const { session } = await open();
    await session.execute({ command: 'greet() {\n  echo "hi $1"\n}' });
    expect((await session.execute({ command: 'greet you' })).output).toBe('hi you');
  });

  test('runs a multi-line script as one unit and returns multi-line output', async () => {
    const { session } = await open();
    const script =
      'for i in 1 2 3; do\n\techo "line $i"\ndone\nprintf \'a\\tb\\n\'\nif false; then echo no; fi';
    const result = await session.execute({ command: script });
    expect(result.output).toBe('line 1\nline 2\nline 3\na\tb');
    expect(result.exit_code).toBe(0);
  });

  test('survives binary output', async () => {
    const { session } = await open();
    const binary = await session.execute({ command: 'head -c 2000 /dev/urandom' });
    expect(binary.outcome).toBe('completed');
    const next = await session.execute({ command: 'echo still here' });
    expect(next).toMatchObject({ outcome: 'completed', output: 'still here', exit_code: 0 });
  });

  test('cuts the middle of a 1 MB output and saves the whole of it in the sandbox', async () => {
    const { session, sandbox } = await open();
    const result = await session.execute({ command: 'seq 1 150000' });
    const full = Array.from({ length: 150_000 }, (_, index) => index + 1).join('\n');
    const note =
      /\n\[\.\.\. Observation truncated due to length; full output \((\d+) chars\) saved to (\S+) \.\.\.\]\n/.exec(
        result.output,
      );
    expect(note).not.toBeNull();
    expect(Number(note?.[1])).toBe(full.length);
    expect(note?.[2]).toMatch(new RegExp(`^${sandbox.transport.outputDir}/[0-9a-f]+\\.log$`));
    expect(result.output.startsWith(full.slice(0, 15_000))).toBe(true);
    expect(result.output.endsWith(full.slice(-15_000))).toBe(true);
    expect(result.output.length).toBe(30_000 + (note?.[0].length ?? 0));
    expect((await sandbox.files.read(note?.[2] ?? '')).toString()).toBe(full);
  });

  test('stops waiting at the shortened hard cap, then C-c ends the command', async () => {
    const { session } = await open({ hardTimeoutMs: 1000 });
    const timedOut = await session.execute({ command: 'while true; do echo tick; sleep 0.1; done' });
    expect(timedOut).toMatchObject({ outcome: 'hard_timeout', exit_code: -1 });
    expect(timedOut.output).toMatch(/^tick\n/);
    expect(timedOut.metadata.suffix).toBe(hardTimeoutSuffix(1));
    expect(timedOut.metadata.suffix).toBe(
      '\n[The command timed out after 1 seconds. You may wait longer to see additional output by sending empty command \'\', send other commands to interact with the current process, send keys ("C-c", "C-z", "C-d") to interrupt/kill the previous command before sending your new command, or use the timeout parameter in execute_bash for future commands.]',
    );
    const interrupted = await session.execute({ command: 'C-c', isInput: true });
    expect(interrupted).toMatchObject({ outcome: 'completed', exit_code: 130 });
    expect(interrupted.metadata.prefix).toBe(CONTINUED_PREFIX);
    expect(interrupted.metadata.suffix).toBe(
      '\n[The command completed with exit code 130. CTRL+C was sent.]',
    );
    expect((await session.execute({ command: 'echo after' })).output).toBe('after');
  });

  test('reports no new output, polls return only new output, and the command never dies', async () => {
    const { session } = await open({ noChangeTimeoutMs: 500 });
    const first = await session.execute({ command: 'echo start; sleep 1.5; echo middle; sleep 1000' });
    expect(first).toMatchObject({ outcome: 'no_change_timeout', exit_code: -1, output: 'start' });
    expect(first.metadata.suffix).toBe(noChangeSuffix(0.5));
    let poll = await session.execute({ command: '' });
    while (poll.output === '') poll = await session.execute({ command: '' });
    expect(poll).toMatchObject({ outcome: 'no_change_timeout', output: 'middle' });
    expect(poll.metadata.prefix).toBe(CONTINUED_PREFIX);
    expect(observationText(poll).startsWith('[Below is the output of the previous command.]\nmiddle')).toBe(
      true,
    );
    expect(session.busy).toBe(true);
    expect((await session.execute({ command: 'C-c', isInput: true })).exit_code).toBe(130);
  });

  test('sends input to a command waiting in read', async () => {
    const { session } = await open({ noChangeTimeoutMs: 500 });
    const waiting = await session.execute({ command: 'read -r -p "name? " name; echo "hello $name"' });
    expect(waiting).toMatchObject({ outcome: 'no_change_timeout', output: 'name? ' });
    const answered = await session.execute({ command: 'world', isInput: true });
    expect(answered).toMatchObject({ outcome: 'completed', exit_code: 0, output: 'hello world' });
    expect(answered.metadata.suffix).toBe(completedSuffix(0, null));
  });

  test('Stop interrupts sleep 1000 with C-c', async () => {
    const { session, sandbox } = await open();
    const running = session.execute({ command: 'sleep 1000' });
    await waitForProcess(sandbox.transport, '^slee[p] 1000$');
    const stopped = await session.interrupt();
    expect(await running).toBe(stopped);
    expect(stopped).toMatchObject({ outcome: 'interrupted', exit_code: 130 });
    expect(stopped?.metadata.suffix).toBe(STOPPED_SUFFIX);
    expect(observationText(stopped ?? (await running))).toContain(
      '\n[The command was interrupted by the user (Stop).]',
    );
    expect(await session.interrupt()).toBeNull();
    expect((await session.execute({ command: 'echo next' })).output).toBe('next');
  });

  test('Stop sends SIGINT to the foreground group when C-c is not a signal', async () => {
    const { session, sandbox } = await open();
    // ISIG off: the TTY passes C-c through as a byte, so only `kill -INT -<pgid>` ends this. The marker file
    // says ISIG is off; C-c sent before that would end the program as a KeyboardInterrupt instead.
    const marker = `/tmp/dockhand-isig-off-${process.pid}-${Date.now()}`;
    const command = `python3 -c "import termios,time; a=termios.tcgetattr(0); a[3]&=~termios.ISIG; termios.tcsetattr(0,termios.TCSANOW,a); open('${marker}','w').close(); time.sleep(1000)"`;
    const running = session.execute({ command });
    await waitUntil(marker, async () => (await sandbox.transport.run(`test -e ${marker}`)).exitCode === 0);
    const stopped = await session.interrupt();
    expect(await running).toBe(stopped);
    expect(stopped).toMatchObject({ outcome: 'interrupted', exit_code: 130 });
  });

  test('Stop ends a process that ignores SIGINT with SIGKILL', async () => {
    const { session, sandbox } = await open();
    const running = session.execute({ command: 'bash -c \'trap "" INT; sleep 1001\'' });
    await waitForProcess(sandbox.transport, '^slee[p] 1001$');
    const stopped = await session.interrupt();
    expect(await running).toBe(stopped);
    expect(stopped).toMatchObject({ outcome: 'interrupted', exit_code: 137 });
    expect((await session.execute({ command: 'echo alive' })).output).toBe('alive');
  });

  test('refuses a new command while the previous one runs', async () => {
    const { session } = await open();
    const first = await session.execute({ command: 'sleep 1002', timeout: 1 });
    expect(first.metadata.suffix).toBe(hardTimeoutSuffix(1));
    const refused = await session.execute({ command: 'echo hi' });
    expect(refused).toMatchObject({ outcome: 'refused', exit_code: -1, output: '' });
    expect(refused.metadata.suffix).toBe(refusedSuffix('echo hi'));
    expect(refused.metadata.suffix).toContain(
      '[Your command "echo hi" is NOT executed. The previous command is still running - You CANNOT send new commands until the previous command is completed. By setting `is_input` to `true`, you can interact with the current process: You may wait longer',
    );
    const interrupted = await session.execute({ command: 'C-c', isInput: true });
    expect(interrupted.exit_code).toBe(130);
    expect((await session.execute({ command: 'echo hi' })).output).toBe('hi');
  });

  test('answers polls and input with nothing running', async () => {
    const { session } = await open();
    const poll = await session.execute({ command: '' });
    expect(poll).toMatchObject({ outcome: 'error', output: NO_COMMAND_FOR_LOGS, exit_code: -1 });
    expect(observationText(poll)).toBe('ERROR: No previous running command to retrieve logs from.');
    const input = await session.execute({ command: 'y', isInput: true });
    expect(input.output).toBe(NO_COMMAND_FOR_INPUT);
  });

  test('restarts an exited shell in its last directory', async () => {
    const { session } = await open();
    await session.execute({ command: 'cd /tmp && export KEPT=yes' });
    const exited = await session.execute({ command: 'exit 3' });
    expect(exited).toMatchObject({ outcome: 'shell_exited', exit_code: 3 });
    expect(exited.metadata.suffix).toBe(shellExitedSuffix(3, '/tmp'));
    expect(exited.metadata.suffix).toBe(
      '\n[The shell exited with code 3 and was restarted in /tmp; exported variables and jobs are gone.]',
    );
    const after = await session.execute({ command: 'pwd; echo "${KEPT:-gone}"' });
    expect(after).toMatchObject({ outcome: 'completed', output: '/tmp\ngone' });
  });

  test('runs concurrent calls one at a time', async () => {
    const { session } = await open();
    const [first, second] = await Promise.all([
      session.execute({ command: 'sleep 0.3; echo first' }),
      session.execute({ command: 'echo second' }),
    ]);
    expect(first).toMatchObject({ outcome: 'completed', output: 'first' });
    expect(second).toMatchObject({ outcome: 'completed', output: 'second' });
  });

  test('after a service restart, starts in the last directory and says so once', async () => {
    const { session } = await open({ restoredWorkingDir: '/tmp' });
    const first = await session.execute({ command: 'pwd' });
    expect(first.output).toBe('/tmp');
    expect(first.metadata.prefix).toBe(restartedPrefix('/tmp'));
    expect(first.metadata.prefix).toBe(
      '[The shell was restarted; exported variables and jobs are gone. Working directory: /tmp]\n',
    );
    expect((await session.execute({ command: 'pwd' })).metadata.prefix).toBe('');
  });
});

describe.skipIf(processSkipReason !== null)('ProcessShellTransport', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('pauses and resumes the whole process tree without bash noticing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dockhand-shell-'));
    const transport = new ProcessShellTransport({
      workingDir: dir,
      env: hostBaseEnvironment(process.env),
      stateDir: join(dir, '.dockhand'),
    });
    const session = new ShellSession(transport, TEST_LIMITS);
    cleanups.push(async () => {
      await session.close();
      await rm(dir, { recursive: true, force: true });
    });
    const running = session.execute({ command: 'sleep 3 && echo done' });
    await waitForProcess(transport, '^slee[p] 3$');
    const wrapper = transport.pid ?? -1;
    await transport.pause();
    const states = async () =>
      Promise.all(
        (await processTree(wrapper)).map(async (pid) => {
          const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
          return stat.slice(stat.lastIndexOf(') ') + 2)[0];
        }),
      );
    await waitUntil('every process to stop', async () => (await states()).every((state) => state === 'T'));
    expect((await states()).length).toBeGreaterThanOrEqual(3);
    await transport.resume();
    expect(await running).toMatchObject({ outcome: 'completed', output: 'done', exit_code: 0 });
  });
});
