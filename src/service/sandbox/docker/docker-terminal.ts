import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import type { SandboxTerminal, TerminalOptions } from '../sandbox-workspace';
import { dockerExec, execExitCode } from './docker-exec';

export interface DockerTerminalOptions extends TerminalOptions {
  /** The container user the shell runs as. */
  user: string;
  workingDir: string;
}

// Records the shell's pid in the container (the engine only knows the host's), then becomes bash.
const START_SCRIPT = 'printf %s "$$" > "$1"; exec /bin/bash -i';

// The hang-up a closing terminal gives: SIGHUP to the foreground job ($tpgid, field 8 of /proc/<pid>/stat)
// and to bash (which passes it on to its jobs); what is still alive 2 s later is killed. A shell closed as
// it starts may not have written its pid yet: the script waits for it (5 s at most). Run as the shell's
// user, so a rewritten pid file cannot make it signal anyone else's process.
const HANG_UP_SCRIPT = `i=0; while [ ! -s "$1" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
pid=$(cat "$1" 2>/dev/null); rm -f "$1"
case "$pid" in ''|*[!0-9]*) exit 0;; esac
stat=$(cat /proc/$pid/stat 2>/dev/null) || exit 0
set -- \${stat##*) }; group=$6
[ "$group" -gt 1 ] 2>/dev/null && kill -HUP -- -"$group" 2>/dev/null
kill -HUP "$pid" 2>/dev/null
i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i+1)); done
[ "$group" -gt 1 ] 2>/dev/null && kill -KILL -- -"$group" 2>/dev/null
kill -KILL "$pid" 2>/dev/null; exit 0`;

/**
 * bash on a TTY `docker exec` in a running container. The engine cannot end an exec (closing its stream
 * leaves the shell running), so `close()` hangs the shell up from inside the container.
 */
export async function openDockerTerminal(
  container: Docker.Container,
  options: DockerTerminalOptions,
): Promise<SandboxTerminal> {
  const pidFile = `/tmp/.dockhand-terminal-${randomUUID()}.pid`;
  const exec = await container.exec({
    Cmd: ['/bin/sh', '-c', START_SCRIPT, 'sh', pidFile],
    Tty: true,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    User: options.user,
    WorkingDir: options.workingDir,
    // No COLORTERM: 24-bit colours would reach the page as inline styles, which its CSP refuses.
    Env: ['TERM=xterm-256color'],
  });
  const stream: Duplex = await exec.start({ hijack: true, stdin: true, Tty: true });
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    execExitCode(exec).then(options.onExit, () => options.onExit(-1));
  };
  stream.on('data', options.onData);
  stream.once('end', end);
  stream.once('close', end);
  stream.once('error', end);
  const resize = async ({ cols, rows }: { cols: number; rows: number }) => {
    // A shell that already ended is reported through `end`; resizing it would only fail.
    if (!ended) await exec.resize({ h: rows, w: cols }).catch(() => undefined);
  };
  await resize(options);
  let closing: Promise<void> | null = null;
  return {
    write: (data) => {
      if (!ended) stream.write(data);
    },
    resize,
    close: () =>
      (closing ??= dockerExec(container, ['sh', '-c', HANG_UP_SCRIPT, 'sh', pidFile], {
        user: options.user,
        timeout: 30,
      }).then(
        () => void stream.destroy(),
        () => void stream.destroy(),
      )),
  };
}
