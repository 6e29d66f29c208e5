import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AcpAgentKind, AgentInstall } from '../../shared/api/agents';
import { acpAgent, type AcpAgentSpec, type AgentLaunch } from './agent-catalog';

/** The npm that installs agents: a Node binary and npm's CLI script beside it. */
export interface InstallerNpm {
  node: string;
  npmCli: string;
}

export interface AgentInstallsOptions {
  /** `<dataDir>/agents`: one folder per installed `<kind>-<version>`. */
  root: string;
  /** Null when this computer has no npm Dockhand can run (installs then fail with that reason). */
  npm: InstallerNpm | null;
  /** The CPU the sandboxes run on, as Node names it (`x64`, `arm64`): their packages are Linux ones of it. */
  arch: string;
  /** The environment npm runs with (its proxy and registry settings, HOME for ~/.npmrc). */
  environment: NodeJS.ProcessEnv;
  /** Seconds an install may take. */
  timeoutSeconds?: number;
}

/** An agent ready to run: its folder on this computer (lent to sandboxes) and how it starts. */
export interface InstalledAgent {
  spec: AcpAgentSpec;
  folder: string;
  /** The name its folder is lent under: `<kind>-<version>`, unique per content. */
  lentName: string;
  launch: AgentLaunch;
}

/** Written last into a finished install: a folder without it is not an install. */
const MANIFEST = 'dockhand-agent.json';
const PARTIAL_PREFIX = '.partial-';
const DEFAULT_TIMEOUT_SECONDS = 15 * 60;
/** How much of npm's error output a failure keeps. */
const ERROR_TAIL_CHARS = 600;

interface Manifest {
  kind: AcpAgentKind;
  version: string;
  size_bytes: number;
  install_seconds: number;
}

/** Progress and the outcome of an install running now or the last one that failed, per agent. */
interface Running {
  promise: Promise<InstalledAgent>;
  progress: string;
}

/**
 * Installs the pinned package of each ACP agent from the npm registry into the data folder, once: into a
 * partial folder renamed into place only when npm succeeded and the agent's entry is there, so an agent is
 * either wholly installed or not at all. Install scripts never run (`--ignore-scripts`): nothing a package
 * ships runs on this computer. Packages are chosen for Linux on the sandboxes' CPU, whatever this computer is.
 */
export class AgentInstalls {
  private readonly running = new Map<AcpAgentKind, Running>();
  private readonly failures = new Map<AcpAgentKind, string>();

  constructor(private readonly options: AgentInstallsOptions) {}

  /** Removes what an interrupted install left (called once at start). */
  async init(): Promise<void> {
    await mkdir(this.options.root, { recursive: true, mode: 0o700 });
    for (const entry of await readdir(this.options.root)) {
      if (entry.startsWith(PARTIAL_PREFIX))
        await rm(path.join(this.options.root, entry), { recursive: true, force: true });
    }
  }

  async status(kind: AcpAgentKind): Promise<AgentInstall> {
    const running = this.running.get(kind);
    if (running) return idle('installing', { progress: running.progress });
    const manifest = await this.manifest(acpAgent(kind));
    if (manifest) {
      return idle('installed', {
        size_bytes: manifest.size_bytes,
        install_seconds: manifest.install_seconds,
      });
    }
    const error = this.failures.get(kind);
    return error ? idle('failed', { error }) : idle('not_installed');
  }

  /**
   * The installed agent, installing it first when it is not (one install per agent at a time: a second
   * caller waits for the first). `onProgress` hears what the install does.
   */
  async ensure(
    kind: AcpAgentKind,
    onProgress: (message: string) => void = () => undefined,
  ): Promise<InstalledAgent> {
    const spec = acpAgent(kind);
    if (await this.manifest(spec)) return this.installed(spec);
    let running = this.running.get(kind);
    if (!running) {
      const started: Running = { progress: 'Starting npm', promise: Promise.resolve(null as never) };
      started.promise = this.install(spec, (message) => {
        started.progress = message;
      }).finally(() => this.running.delete(kind));
      running = started;
      this.running.set(kind, running);
    }
    const current = running;
    const timer = setInterval(() => onProgress(current.progress), 1000);
    onProgress(current.progress);
    try {
      return await current.promise;
    } finally {
      clearInterval(timer);
    }
  }

  private installed(spec: AcpAgentSpec): InstalledAgent {
    return {
      spec,
      folder: this.folderOf(spec),
      lentName: `${spec.kind}-${spec.version}`,
      launch: spec.launch(this.options.arch),
    };
  }

  private folderOf(spec: AcpAgentSpec): string {
    return path.join(this.options.root, `${spec.kind}-${spec.version}`);
  }

  private async manifest(spec: AcpAgentSpec): Promise<Manifest | null> {
    try {
      const manifest = JSON.parse(
        await readFile(path.join(this.folderOf(spec), MANIFEST), 'utf8'),
      ) as Manifest;
      return manifest.version === spec.version ? manifest : null;
    } catch {
      return null;
    }
  }

  private async install(spec: AcpAgentSpec, progress: (message: string) => void): Promise<InstalledAgent> {
    const started = Date.now();
    this.failures.delete(spec.kind);
    const partial = path.join(
      this.options.root,
      `${PARTIAL_PREFIX}${spec.kind}-${randomBytes(6).toString('hex')}`,
    );
    try {
      await mkdir(partial, { recursive: true, mode: 0o700 });
      await this.runNpm(spec, partial, progress);
      const launch = spec.launch(this.options.arch);
      if (!existsSync(path.join(partial, launch.entry))) {
        throw new Error(
          `npm finished but ${launch.entry} is missing: the package has no build for Linux ${this.options.arch}.`,
        );
      }
      progress('Checking the install');
      const manifest: Manifest = {
        kind: spec.kind,
        version: spec.version,
        size_bytes: await folderSize(partial),
        install_seconds: Math.round((Date.now() - started) / 100) / 10,
      };
      await writeFile(path.join(partial, MANIFEST), JSON.stringify(manifest), { mode: 0o600 });
      await rm(this.folderOf(spec), { recursive: true, force: true });
      await rename(partial, this.folderOf(spec));
      return this.installed(spec);
    } catch (error) {
      await rm(partial, { recursive: true, force: true });
      const reason = error instanceof Error ? error.message : String(error);
      const message = `Installing ${spec.label} (${spec.packageName}@${spec.version}) failed: ${reason} Fix: check that this computer reaches the npm registry, then install again.`;
      this.failures.set(spec.kind, message);
      throw new Error(message, { cause: error });
    }
  }

  private runNpm(spec: AcpAgentSpec, prefix: string, progress: (message: string) => void): Promise<void> {
    const npm = this.options.npm;
    if (!npm) return Promise.reject(new Error('this computer has no npm Dockhand can run.'));
    const args = [
      npm.npmCli,
      'install',
      `${spec.packageName}@${spec.version}`,
      '--prefix',
      prefix,
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
      '--save-exact',
      '--os=linux',
      `--cpu=${this.options.arch}`,
      '--libc=glibc',
      '--loglevel=http',
    ];
    return new Promise((resolve, reject) => {
      const child = spawn(npm.node, args, {
        cwd: prefix,
        env: this.options.environment,
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: (this.options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
      });
      let fetched = 0;
      let errors = '';
      child.stdout.resume();
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) {
          if (/^npm http fetch GET 200 /.test(line)) progress(`Downloading packages (${++fetched})`);
          else if (/^npm (error|ERR!)/.test(line))
            errors = (errors + line.replace(/^npm (error|ERR!) ?/, '') + ' ').slice(-ERROR_TAIL_CHARS);
        }
      });
      child.on('error', reject);
      child.on('close', (code, signal) => {
        if (code === 0) resolve();
        else if (signal) reject(new Error(`npm was stopped (${signal}) after ${fetched} packages.`));
        else reject(new Error(`npm ended with exit code ${code}: ${errors.trim() || 'no message'}.`));
      });
    });
  }
}

function idle(state: AgentInstall['state'], fields: Partial<AgentInstall> = {}): AgentInstall {
  return { state, progress: null, error: null, size_bytes: null, install_seconds: null, ...fields };
}

/** Bytes in a folder's files (links not followed). */
async function folderSize(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}
