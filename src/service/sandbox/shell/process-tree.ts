import { readFile, readdir } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

interface ProcessEntry {
  pid: number;
  state: string;
  ppid: number;
  session: number;
}

/**
 * Every process that belongs to a shell started under `rootPid`, parents first: its descendants, and
 * the other members of their sessions (background jobs whose parent has exited). Linux (/proc) only.
 */
export async function processTree(rootPid: number): Promise<number[]> {
  const processes = await readProcesses();
  const children = new Map<number, number[]>();
  for (const entry of processes) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry.pid]);
  const ordered: number[] = [];
  const queue = processes.some((entry) => entry.pid === rootPid) ? [rootPid] : [];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    ordered.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  const sessions = new Set(
    processes.filter((entry) => ordered.includes(entry.pid)).map((entry) => entry.session),
  );
  const strays = processes.filter((entry) => sessions.has(entry.session) && !ordered.includes(entry.pid));
  return [...ordered, ...strays.map((entry) => entry.pid)];
}

/**
 * Stops the whole tree, parents first, each one stopped before its children are signalled: a bash still
 * inside waitpid() would otherwise collect its job's stop and report the job as stopped. Repeats for
 * processes forked meanwhile.
 */
export async function pauseProcessTree(rootPid: number): Promise<void> {
  const stopped = new Set<number>();
  for (let round = 0; round < 5; round++) {
    const fresh = (await processTree(rootPid)).filter((pid) => !stopped.has(pid));
    if (fresh.length === 0) return;
    for (const pid of fresh) {
      signalIfAlive(pid, 'SIGSTOP');
      stopped.add(pid);
      await untilStopped(pid);
    }
  }
}

/** Continues the whole tree, children first, so that bash only ever sees its job running. */
export async function resumeProcessTree(rootPid: number): Promise<void> {
  for (const pid of (await processTree(rootPid)).reverse()) signalIfAlive(pid, 'SIGCONT');
}

/** Signals a process (or, with a negative number, a process group) that may have just exited. */
export function signalIfAlive(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Waits (1 s at most) until the process shows as stopped, or is gone. */
async function untilStopped(pid: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const entry = await readProcess(String(pid));
    if (!entry || entry.state === 'T') return;
    await delay(5);
  }
}

async function readProcesses(): Promise<ProcessEntry[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const entries = await Promise.all(pids.map(readProcess));
  return entries.filter((entry): entry is ProcessEntry => entry !== null);
}

async function readProcess(pid: string): Promise<ProcessEntry | null> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // it exited while the list was read
  }
  // After "pid (comm) ": state ppid pgrp session ...; comm may itself contain ") ".
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return { pid: Number(pid), state: fields[0] ?? '', ppid: Number(fields[1]), session: Number(fields[3]) };
}
