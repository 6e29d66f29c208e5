import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requiredInCi } from './required-in-ci';

const LOGIN_COLLECTION = '/org/freedesktop/secrets/collection/login';

/** Why a private D-Bus session with gnome-keyring cannot run here, or null; with `CI` set, throws instead. */
export function privateKeyringSkipReason(): string | null {
  const missing = ['dbus-daemon', 'gnome-keyring-daemon', 'gdbus'].find(
    (program) => spawnSync('which', [program]).status !== 0,
  );
  return requiredInCi(
    'A keyring daemon on a private D-Bus session',
    missing ? `${missing} is not installed` : null,
  );
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/**
 * A D-Bus session bus of the test's own, with a throwaway HOME and no service files: nothing starts on
 * demand, so without `startKeyring` it has no Secret Service at all. Never the caller's bus or keyring.
 */
export class PrivateKeyring {
  readonly dir: string;
  readonly home: string;
  readonly address: string;
  private readonly processes: ChildProcess[] = [];

  private constructor() {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-bus-'));
    this.home = path.join(this.dir, 'home');
    mkdirSync(this.home);
    this.address = `unix:path=${path.join(this.dir, 'bus')}`;
  }

  static async start(): Promise<PrivateKeyring> {
    const keyring = new PrivateKeyring();
    const config = path.join(keyring.dir, 'bus.conf');
    writeFileSync(
      config,
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>${keyring.address}</listen>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`,
    );
    keyring.processes.push(
      spawn('dbus-daemon', [`--config-file=${config}`, '--nofork'], { stdio: 'ignore' }),
    );
    await waitFor(() => existsSync(path.join(keyring.dir, 'bus')), 'the private D-Bus socket');
    return keyring;
  }

  /** The environment that points a process at this bus and HOME. */
  env(): Record<string, string | undefined> {
    return { HOME: this.home, DBUS_SESSION_BUS_ADDRESS: this.address, DISPLAY: undefined };
  }

  /** Starts gnome-keyring's Secret Service, creating (or unlocking) the login keyring with `password`. */
  async startKeyring(password: string): Promise<void> {
    const daemon = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      env: { ...process.env, ...this.env() },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    this.processes.push(daemon);
    daemon.stdin?.end(password);
    await waitFor(
      () =>
        this.gdbus(
          'org.freedesktop.DBus',
          '/org/freedesktop/DBus',
          'org.freedesktop.DBus.NameHasOwner',
          'org.freedesktop.secrets',
        ).includes('true'),
      'the Secret Service on the private bus',
    );
  }

  /** Locks the login keyring through the Secret Service API. */
  lock(): void {
    this.gdbus(
      'org.freedesktop.secrets',
      '/org/freedesktop/secrets',
      'org.freedesktop.Secret.Service.Lock',
      `['${LOGIN_COLLECTION}']`,
    );
  }

  /** Whether the login keyring is locked (its `Locked` property). */
  locked(): boolean {
    return this.gdbus(
      'org.freedesktop.secrets',
      LOGIN_COLLECTION,
      'org.freedesktop.DBus.Properties.Get',
      'org.freedesktop.Secret.Collection',
      'Locked',
    ).includes('true');
  }

  /** Ends the keyring daemon and the bus, and removes the folder. */
  async stop(): Promise<void> {
    for (const child of this.processes.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private gdbus(dest: string, objectPath: string, method: string, ...args: string[]): string {
    const result = spawnSync(
      'gdbus',
      ['call', '--session', '--dest', dest, '--object-path', objectPath, '--method', method, ...args],
      { env: { ...process.env, ...this.env() }, encoding: 'utf8' },
    );
    return result.stdout;
  }
}
