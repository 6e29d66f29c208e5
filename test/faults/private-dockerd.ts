import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';

/**
 * A Docker engine of the test's own (root only): its socket, data, exec root and pid file live in one
 * folder under /tmp, with no bridge and no iptables, so stopping it never touches the shared engine.
 */
export class PrivateDockerd {
  readonly dir: string;
  readonly socket: string;
  private process: ChildProcess | null = null;

  constructor() {
    this.dir = mkdtempSync('/tmp/dhd-');
    this.socket = path.join(this.dir, 'docker.sock');
  }

  /** Why a private engine cannot run here, or null. */
  static skipReason(): string | null {
    if (process.getuid?.() !== 0) return 'starting a private Docker engine needs root';
    if (spawnSync('dockerd', ['--version']).status !== 0) return 'dockerd is not installed';
    return null;
  }

  get host(): string {
    return `unix://${this.socket}`;
  }

  get pid(): number | null {
    return this.process?.pid ?? null;
  }

  get client(): Docker {
    return new Docker({ socketPath: this.socket });
  }

  /** Starts the engine (again, on the same folders) and waits until it answers. */
  async start(): Promise<void> {
    const child = spawn(
      'dockerd',
      [
        '--host',
        this.host,
        '--data-root',
        path.join(this.dir, 'data'),
        '--exec-root',
        path.join(this.dir, 'exec'),
        '--pidfile',
        path.join(this.dir, 'docker.pid'),
        '--bridge=none',
        '--iptables=false',
        '--ip-masq=false',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString('utf8')).slice(-4000)));
    this.process = child;
    for (let attempt = 0; attempt < 150; attempt++) {
      if (child.exitCode !== null) throw new Error(`dockerd exited (${child.exitCode}):\n${log}`);
      if (
        await this.client.ping().then(
          () => true,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`dockerd did not answer within 30 s:\n${log}`);
  }

  /** SIGTERM, then waits until the engine has exited. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const killed = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killed);
  }

  /** Copies an image of the shared engine into this one; returns how long it took (ms). */
  loadImage(image: string): number {
    const started = Date.now();
    execFileSync('bash', ['-o', 'pipefail', '-c', `docker save ${image} | docker -H ${this.host} load -q`], {
      stdio: 'ignore',
    });
    return Date.now() - started;
  }

  /** Stops the engine and removes its folder (unmounting what it left mounted). */
  async remove(): Promise<void> {
    await this.stop();
    const mounts = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[1] ?? '')
      .filter((mount) => mount.startsWith(`${this.dir}/`))
      .sort((a, b) => b.length - a.length);
    for (const mount of mounts) spawnSync('umount', ['-l', mount]);
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Whether anything of it is left: a process, a mount or the folder. */
  leftovers(): string[] {
    const found: string[] = [];
    if (this.process) found.push(`process ${this.process.pid}`);
    if (readFileSync('/proc/mounts', 'utf8').includes(this.dir)) found.push(`mounts under ${this.dir}`);
    if (existsSync(this.dir)) found.push(this.dir);
    return found;
  }
}
