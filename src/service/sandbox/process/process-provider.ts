import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { httpError } from '../../http/errors';
import { WORKSPACE_DIR } from '../docker/container-options';
import type { ExposedUrl, ObservedState, SandboxRecord } from '../sandbox-models';
import type { CreateRequest, SandboxProvider } from '../sandbox-provider';
import { INITIAL_ENV, WORKING_DIR } from '../sandbox-specs';
import { ProcessWorkspace } from './process-workspace';
import type { SandboxProcesses } from './sandbox-processes';

const APP_PORT_NAMES = ['WORKER_1', 'WORKER_2'] as const;

/** Ports free on 127.0.0.1 right now, all held open together so they differ. */
async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
    }
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** The host folder that stands for a path under /workspace in the spec. */
function hostPath(workspaceDir: string, sandboxPath: string): string {
  const relative = path.posix.relative(WORKSPACE_DIR, sandboxPath);
  return relative.startsWith('..') ? workspaceDir : path.join(workspaceDir, relative);
}

/**
 * Sandboxes without isolation: a host folder `<dataDir>/workspaces/<id>` stands for /workspace and commands
 * run as host processes. Pause stops the sandbox's processes (SIGSTOP), resume continues them (SIGCONT).
 * Chosen only when asked for (DOCKHAND_SANDBOX_PROVIDER=process or the `sandbox_provider` setting).
 */
export class ProcessSandboxProvider implements SandboxProvider {
  readonly kind = 'process' as const;
  readonly isolated = false;

  constructor(
    private readonly dataDir: string,
    private readonly processes: SandboxProcesses,
    /** PATH, HOME and the locale of the service's environment (`hostBaseEnvironment`): what commands start from. */
    private readonly hostEnvironment: Record<string, string>,
  ) {}

  /** Pausing and ending a sandbox's process groups is only built and tested on Linux. */
  async ensureAvailable(): Promise<void> {
    if (process.platform !== 'linux') {
      throw httpError(503, 'Process sandboxes need Linux; use the "docker" sandbox provider');
    }
  }

  workspaceDir(sandboxId: string): string {
    return path.join(this.dataDir, 'workspaces', sandboxId);
  }

  async create(request: CreateRequest): Promise<ObservedState> {
    const dir = this.workspaceDir(request.id);
    await mkdir(hostPath(dir, request.spec.workingDir), { recursive: true, mode: 0o700 });
    request.onCreated(dir);
    const ports = await freePorts(APP_PORT_NAMES.length);
    const exposedUrls: ExposedUrl[] = APP_PORT_NAMES.map((name, index) => {
      const port = ports[index] ?? 0;
      return { name, url: `http://localhost:${port}`, port };
    });
    return { status: 'RUNNING', error: null, exposedUrls };
  }

  async pause(record: SandboxRecord): Promise<ObservedState> {
    await this.processes.pause(record.id);
    return { status: 'PAUSED', error: null, exposedUrls: record.exposedUrls };
  }

  async resume(record: SandboxRecord): Promise<ObservedState> {
    await this.processes.resume(record.id);
    return this.observe({ ...record, status: 'RUNNING' });
  }

  async remove(record: SandboxRecord): Promise<void> {
    await this.processes.kill(record.id);
    await rm(this.workspaceDir(record.id), { recursive: true, force: true });
  }

  async observe(record: SandboxRecord): Promise<ObservedState> {
    if (!existsSync(this.workspaceDir(record.id))) {
      return {
        status: 'MISSING',
        error: 'The workspace folder was removed outside Dockhand',
        exposedUrls: [],
      };
    }
    const status = record.status === 'STARTING' ? 'RUNNING' : record.status;
    return { status, error: record.error, exposedUrls: record.exposedUrls };
  }

  watch(): void {}

  /** The host's files are read directly: nothing is read ahead. */
  takeReadAhead(): null {
    return null;
  }

  async workspace(record: SandboxRecord): Promise<ProcessWorkspace> {
    const workspaceDir = this.workspaceDir(record.id);
    const port = (name: string) => record.exposedUrls.find((url) => url.name === name)?.port ?? 0;
    return new ProcessWorkspace({
      sandboxId: record.id,
      workspaceDir,
      workingDir: hostPath(workspaceDir, WORKING_DIR),
      env: { ...this.hostEnvironment, ...INITIAL_ENV },
      appPorts: { WORKER_1: port('WORKER_1'), WORKER_2: port('WORKER_2') },
      helperDir: path.join(this.dataDir, 'helpers'),
      adopt: (member) => this.processes.adopt(record.id, member),
    });
  }

  async close(): Promise<void> {}
}
