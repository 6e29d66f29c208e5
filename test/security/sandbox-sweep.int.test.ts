import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CAPABILITIES } from '../../src/service/sandbox/docker/container-options';
import { startWorkspaceConversation, type WorkspaceConversation } from '../conversations/workspace-fixture';
import { docker, dockerSkipReason, execIn } from '../sandbox/support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the sandbox security sweep: ${skip}`);

const OUTSIDE = 'Value error, Path must stay inside the workspace';

// Ways out of /workspace/project: parent steps, absolute paths, NUL, and links inside it that point out.
const ESCAPES = [
  '..',
  '../',
  '../../etc/passwd',
  'src/../../..',
  '/etc/passwd',
  '/workspace',
  '//etc/passwd',
  'hello.txt\u0000/../../etc/passwd',
  'etc-link',
  'etc-link/passwd',
  'trap.txt',
];

// Names that only look like escapes: on Linux they are literal file names inside the workspace.
const LOOKALIKES = [
  '%2e%2e/%2e%2e/etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '..\\..\\etc\\passwd',
  ...ESCAPES.map(encodeURIComponent),
];

describe.skipIf(skip !== null)('sandbox security sweep', () => {
  let workspace: WorkspaceConversation;

  beforeAll(async () => {
    workspace = await startWorkspaceConversation();
  });
  afterAll(async () => {
    await workspace?.close();
  });

  it('refuses every path that leaves the workspace on every file route', async () => {
    const wrong: string[] = [];
    for (const [route, param] of [
      ['/list-files', 'path'],
      ['/select-file', 'file'],
      ['/git/diff', 'path'],
    ] as const) {
      for (const escape of ESCAPES) {
        const answer = await workspace.api('GET', `${route}?${param}=${encodeURIComponent(escape)}`);
        const refused =
          answer.status === 422 && (answer.json as { detail: { msg: string }[] }).detail[0]?.msg === OUTSIDE;
        if (!refused) wrong.push(`${route} ${JSON.stringify(escape)}: ${answer.status} ${answer.text}`);
      }
      for (const name of LOOKALIKES) {
        const answer = await workspace.api('GET', `${route}?${param}=${encodeURIComponent(name)}`);
        // Refused, not found, or (git diff) the empty diff of a file that does not exist.
        const absent =
          answer.status === 404 ||
          answer.status === 422 ||
          (route === '/git/diff' && answer.text === '{"modified":"","original":""}');
        if (!absent) wrong.push(`${route} ${JSON.stringify(name)}: ${answer.status} ${answer.text}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps uploads named with a path inside the workspace, under their base name', async () => {
    const form = new FormData();
    for (const name of ['../../escape-a.txt', '/tmp/escape-b.txt', '..\\escape-c.txt']) {
      form.append('files', new Blob(['x']), name);
    }
    const response = await fetch(`${workspace.service.url}/api/conversations/${workspace.id}/upload-files`, {
      method: 'POST',
      body: form,
      headers: { 'X-Session-API-Key': workspace.service.key },
    });
    const body = (await response.json()) as { uploaded_files: string[]; skipped_files: unknown[] };
    for (const file of body.uploaded_files) {
      expect(file).toMatch(/^\/workspace\/project\/[^/]+$/);
    }
    const check = await execIn(
      workspace.sandboxId,
      'ls /workspace/escape-a.txt /tmp/escape-b.txt /workspace/escape-c.txt /escape-a.txt 2>&1 | grep -c "No such file"',
    );
    expect(check.stdout.trim()).toBe('4');
  });

  it('runs the sandbox unprivileged, with dropped capabilities, limits and no published ports', async () => {
    const info = await docker.getContainer(`dockhand-${workspace.sandboxId}`).inspect();
    const host = info.HostConfig;
    expect(host.Privileged).toBe(false);
    expect(host.CapDrop).toEqual(['ALL']);
    expect(SANDBOX_CAPABILITIES).toEqual(expect.arrayContaining(host.CapAdd ?? []));
    expect(host.CapAdd).not.toEqual(expect.arrayContaining(['SYS_ADMIN']));
    expect(host.PidsLimit).toBe(1024);
    expect(host.Memory).toBe(4 * 1024 ** 3);
    expect(host.NanoCpus).toBe(2e9);
    expect(['none', 'host']).toContain(host.NetworkMode);
    const bindings = Object.values(host.PortBindings ?? {}).flat();
    expect(bindings.filter((b) => (b as { HostIp?: string }).HostIp !== '127.0.0.1')).toEqual([]);
    expect(info.Config.Labels['dev.dockhand.managed']).toBe('true');
    expect(host.Binds ?? []).toEqual([]);
    // The workspace volume, and the engine's lent folders (installed agents), which the sandbox cannot write.
    expect((host.Mounts ?? []).map((m) => [m.Type, m.Target, m.ReadOnly ?? false])).toEqual([
      ['volume', '/workspace', false],
      ['volume', '/opt/dockhand-lent', true],
    ]);

    // The agent's shell: the non-root user, with no effective capabilities.
    const shell = await execIn(workspace.sandboxId, 'id -u; grep CapEff /proc/self/status');
    const [uid, capEff] = shell.stdout.trim().split('\n');
    expect(uid).toBe('1000');
    expect(capEff).toMatch(/^CapEff:\s+0+$/);
  });
});
