import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../../../test/support/until';
import { processTree } from '../shell/process-tree';
import { hostBaseEnvironment } from './host-environment';
import { openProcessTerminal, type ProcessTerminal } from './process-terminal';

describe('a terminal on this computer (process sandbox)', () => {
  let dir: string;
  let output: string;
  let exits: number[];
  let terminal: ProcessTerminal | null;

  const open = async (size = { cols: 80, rows: 24 }) =>
    (terminal = await openProcessTerminal({
      ...size,
      workingDir: dir,
      env: { ...hostBaseEnvironment(process.env), TERM: 'xterm-256color', PS1: '$ ' },
      onData: (chunk) => (output += chunk.toString()),
      onExit: (code) => exits.push(code),
    }));
  const printed = (text: string) =>
    until(
      async () => output,
      (seen) => seen.includes(text),
      text,
    );

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dockhand-terminal-'));
    output = '';
    exits = [];
    terminal = null;
  });
  afterEach(async () => {
    await terminal?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs bash on a TTY of the size asked for, in the working directory, and follows a resize', async () => {
    const shell = await open({ cols: 91, rows: 27 });
    shell.write(Buffer.from('tty >/dev/null && echo "on-a-$((2 + 3))-tty"; stty size; pwd\n'));
    await printed('27 91');
    expect(output).toContain('on-a-5-tty');
    expect(output).toContain(dir);
    await shell.resize({ cols: 120, rows: 40 });
    shell.write(Buffer.from('stty size\n'));
    await printed('40 120');
  });

  it('reports the exit code of a shell that exits', async () => {
    const shell = await open();
    shell.write(Buffer.from('exit 7\n'));
    await until(
      async () => exits,
      (codes) => codes.length > 0,
      'the exit',
    );
    expect(exits).toEqual([7]);
  });

  it('hangs up the shell and its foreground job when closed', async () => {
    const shell = await open();
    shell.write(Buffer.from('echo started; sleep 600\n'));
    await printed('started');
    const tree = await until(
      () => processTree(shell.pid),
      (pids) => pids.length >= 3,
      'bash and sleep',
    );
    await shell.close();
    expect(exits).toHaveLength(1);
    // Signalled processes may still wait a moment to be reaped by whoever adopted them.
    const running = async () => {
      const states = await Promise.all(
        tree.map((pid) =>
          readFile(`/proc/${pid}/stat`, 'utf8').then(
            (stat) => stat.split(') ')[1]?.[0],
            () => null,
          ),
        ),
      );
      return tree.filter((_pid, i) => states[i] !== null && states[i] !== 'Z');
    };
    expect(await until(running, (pids) => pids.length === 0, 'the shell and its job to end')).toEqual([]);
  });
});
