import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxInfo } from '../../src/shared/api/sandboxes';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import { startSandboxLayer, startSandboxService, type TestSandboxLayer } from './support';

/** The state letter of /proc/<pid>/stat: S sleeping, T stopped, ... */
function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[0] ?? '?';
}

if (process.platform !== 'linux')
  console.warn('Skipping the process sandbox tests: process sandboxes need Linux');

describe.skipIf(process.platform !== 'linux')('process sandboxes', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startSandboxService({}, { provider: 'process' });
  });

  afterAll(async () => {
    await service?.close();
  });

  it('says plainly in /server_info that commands run unsandboxed', async () => {
    const info = (await service.api('GET', '/server_info')).json as {
      sandbox: { provider: string; isolated: boolean; warning: string };
    };
    expect(info.sandbox).toMatchObject({ provider: 'process', isolated: false });
    expect(info.sandbox.warning).toMatch(/commands run unsandboxed on this computer/);
  });

  it('creates a folder, stops and continues its process group, and deletes it', async () => {
    const created = await service.api('POST', '/api/v1/sandboxes');
    expect(created.status).toBe(200);
    const sandbox = await service.service.context.sandboxes.settled((created.json as SandboxInfo).id);
    expect(sandbox).toMatchObject({ status: 'RUNNING', provider: 'process', isolated: false });
    expect(sandbox.exposed_urls?.map((url) => url.name)).toEqual(['WORKER_1', 'WORKER_2', 'AGENT_SERVER']);
    const folder = path.join(service.dataDir, 'workspaces', sandbox.id);
    expect(existsSync(path.join(folder, 'project'))).toBe(true);

    const workspace = await service.service.context.sandboxes.workspace(sandbox.id);
    expect(workspace).toMatchObject({
      isolated: false,
      workspaceDir: folder,
      workingDir: path.join(folder, 'project'),
    });
    // The shell is adopted by the sandbox with the jobs it starts.
    const shell = workspace.shell({ env: {} });
    await shell.start();
    const started = await shell.execute({ command: 'sleep 600 & echo "job=$!"' });
    const pid = Number(/job=(\d+)/.exec(started.output)?.[1]);
    expect(processState(pid)).toMatch(/[SR]/);

    expect((await service.api('POST', `/api/v1/sandboxes/${sandbox.id}/pause`)).json).toEqual({
      success: true,
    });
    expect(processState(pid)).toBe('T');
    const paused = (await service.api('GET', `/api/v1/sandboxes/${sandbox.id}`)).json as SandboxInfo;
    expect(paused).toMatchObject({ status: 'PAUSED', session_api_key: null, exposed_urls: null });

    expect((await service.api('POST', `/api/v1/sandboxes/${sandbox.id}/resume`)).json).toEqual({
      success: true,
    });
    expect(processState(pid)).toMatch(/[SR]/);
    expect(await service.service.context.sandboxes.settled(sandbox.id)).toMatchObject({
      status: 'RUNNING',
      exposed_urls: sandbox.exposed_urls,
    });

    expect((await service.api('DELETE', `/api/v1/sandboxes/${sandbox.id}`)).json).toEqual({ success: true });
    // Deleting the sandbox ended its shell, whose hang-up ended the job.
    await until(
      async () => existsSync(`/proc/${pid}`),
      (alive) => !alive,
      'the job to end',
    );
    expect(existsSync(folder)).toBe(false);
    expect((await service.api('GET', `/api/v1/sandboxes/${sandbox.id}`)).status).toBe(404);
  });

  it('reports a workspace folder removed outside Dockhand as MISSING after a restart', async () => {
    const created = await service.api('POST', '/api/v1/sandboxes');
    const id = (created.json as SandboxInfo).id;
    await service.service.context.sandboxes.settled(id);
    await service.close({ keepData: true });
    rmSync(path.join(service.dataDir, 'workspaces', id), { recursive: true, force: true });
    service = await startSandboxService({ dataDir: service.dataDir }, { provider: 'process' });
    expect((await service.api('GET', `/api/v1/sandboxes/${id}`)).json).toMatchObject({
      status: 'MISSING',
      error: 'The workspace folder was removed outside Dockhand',
    });
  });
});

describe('idle pausing', () => {
  let started: TestSandboxLayer | undefined;

  afterAll(async () => {
    await started?.close();
  });

  it('pauses a RUNNING sandbox left unused longer than the idle time, unless its conversations are busy', async () => {
    let idleOne = '';
    // The test stands in for the conversations: only `idleOne`'s are idle.
    started = await startSandboxLayer({
      maxLive: 5,
      sandbox: { provider: 'process', idlePauseSeconds: 1 },
      users: { isIdle: (id) => id === idleOne, release: async () => {}, resumed: () => {} },
    });
    const { sandboxes, specs } = started.layer;
    const busyOne = await sandboxes.settled((await sandboxes.create(specs.default())).id);
    idleOne = (await sandboxes.settled((await sandboxes.create(specs.default())).id)).id;
    // The busy one is the least recently used, so the check (every second) meets it first and skips it.
    await expect.poll(() => sandboxes.get(idleOne).status, { timeout: 30_000 }).toBe('PAUSED');
    expect(sandboxes.get(busyOne.id).status).toBe('RUNNING');
  });
});
