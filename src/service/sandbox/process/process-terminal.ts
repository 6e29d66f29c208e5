import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants } from 'node:os';
import type { Writable } from 'node:stream';
import type { SandboxTerminal, TerminalOptions, TerminalSize } from '../sandbox-workspace';
import { signalIfAlive } from '../shell/process-tree';

export interface ProcessTerminalOptions extends TerminalOptions {
  workingDir: string;
  /** The shell's whole environment (TERM is set here). */
  env: NodeJS.ProcessEnv;
}

export interface ProcessTerminal extends SandboxTerminal {
  /** The relay's pid (its shell is a child of it), for pausing and resuming the tree. */
  readonly pid: number;
}

/** How long a closed terminal's relay may take to end its shell before it is killed. */
const CLOSE_GRACE_MS = 5000;

// A PTY relay without a native module: python3's pty (Linux). argv: rows cols command...; stdin is the
// keyboard, stdout the screen, fd 3 takes "rows cols" lines (TIOCSWINSZ, so the shell gets SIGWINCH).
// Input waiting for the shell is held here, never written blocking, so a shell that is printing cannot
// deadlock with one that is being typed to. At the end of stdin the terminal hangs up: the PTY is closed
// (SIGHUP to the shell and its foreground job) and what is still alive 2 s later is killed.
const PTY_RELAY = `import fcntl, os, pty, select, signal, struct, sys, termios, time
def size(fd, rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
pid, master = pty.fork()
if pid == 0:
    size(0, int(sys.argv[1]), int(sys.argv[2]))
    os.execvp(sys.argv[3], sys.argv[3:])
os.set_blocking(master, False)
pending, control, inputs, hang_up = b'', b'', [0, 3], False
while True:
    readers = [master] + (inputs if len(pending) < 1048576 else [3])
    ready, writable, _ = select.select(readers, [master] if pending else [], [])
    if master in ready:
        try:
            data = os.read(master, 65536)
        except OSError:
            data = b''
        if not data:
            break
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    if master in writable:
        try:
            pending = pending[os.write(master, pending):]
        except BlockingIOError:
            pass
    if 0 in ready:
        data = os.read(0, 65536)
        if not data:
            hang_up = True
            break
        pending += data
    if 3 in ready:
        data = os.read(3, 4096)
        if not data:
            inputs.remove(3)
        *lines, control = (control + data).split(b'\\n')
        for line in lines:
            fields = line.split()
            if len(fields) == 2 and all(f.isdigit() for f in fields):
                size(master, int(fields[0]), int(fields[1]))
if hang_up:
    os.close(master)
    for _ in range(20):
        if os.waitpid(pid, os.WNOHANG)[0]:
            sys.exit(129)
        time.sleep(0.1)
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except OSError:
            pass
code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
sys.exit(code if code >= 0 else 128 - code)`;

/** bash on a pseudo-terminal of its own, on this computer, as the user. */
export async function openProcessTerminal(options: ProcessTerminalOptions): Promise<ProcessTerminal> {
  const { rows, cols } = options;
  const child = spawn('python3', ['-c', PTY_RELAY, String(rows), String(cols), '/bin/bash', '-i'], {
    cwd: options.workingDir,
    env: options.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  try {
    await once(child, 'spawn');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The terminal needs python3 on this computer: ${reason}`, { cause: error });
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error('The terminal started without a pid.');
  const control = child.stdio[3] as Writable;
  let exited = false;
  const gone = once(child, 'close');
  child.stdout.on('data', options.onData);
  child.stderr.on('data', options.onData);
  // Input written after the shell ended has nowhere to go; the end itself is reported by 'close'.
  child.stdin.on('error', () => undefined);
  control.on('error', () => undefined);
  child.once('close', (code, signal) => {
    exited = true;
    options.onExit(code ?? 128 + (signal ? constants.signals[signal] : 0));
  });
  let closing: Promise<void> | null = null;
  return {
    pid,
    write: (data) => {
      if (!exited) child.stdin.write(data);
    },
    resize: async ({ rows, cols }: TerminalSize) => {
      if (!exited) control.write(`${rows} ${cols}\n`);
    },
    close: () =>
      (closing ??= (async () => {
        if (exited) return;
        child.stdin.end();
        const timer = setTimeout(() => signalIfAlive(-pid, 'SIGKILL'), CLOSE_GRACE_MS);
        await gone;
        clearTimeout(timer);
      })()),
  };
}
