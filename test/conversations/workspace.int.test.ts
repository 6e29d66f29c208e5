import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { TestService } from '../support/service';
import { conversationInfo, dockerSkipReason, execIn } from '../sandbox/support';
import { until } from '../support/until';
import { startWorkspaceConversation, type WorkspaceConversation } from './workspace-fixture';
import { readZip } from './zip-reader';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the conversation workspace tests: ${skip}`);

const OUTSIDE = 'Value error, Path must stay inside the workspace';
const W = '/workspace/project';

// What the user then changes: a modification, a deletion, a new file and a rename.
const EDITS =
  "printf 'changed\\n' > hello.txt && rm src/old.ts && printf 'new\\n' > added.txt && git mv docs/a.md docs/b.md";

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// Every test finds the workspace as the fixture and EDITS left it: a test that changes it puts it back.
describe.skipIf(skip !== null)('conversation workspace routes with a Docker sandbox', () => {
  let workspace: WorkspaceConversation;
  let service: TestService;
  let id: string;
  let sandboxId: string;
  let api: WorkspaceConversation['api'];
  let runAsUser: WorkspaceConversation['runAsUser'];

  const fetchRaw = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${service.url}/api/conversations/${id}${path}`, {
      ...init,
      headers: { 'X-Session-API-Key': service.key, ...init.headers },
    });
    return {
      status: response.status,
      headers: response.headers,
      body: Buffer.from(await response.arrayBuffer()),
    };
  };
  const upload = (files: { name: string; bytes: Buffer }[]) => {
    const form = new FormData();
    for (const file of files) form.append('files', new Blob([new Uint8Array(file.bytes)]), file.name);
    return fetchRaw('/upload-files', { method: 'POST', body: form });
  };

  beforeAll(async () => {
    workspace = await startWorkspaceConversation();
    ({ service, id, sandboxId, api, runAsUser } = workspace);
    await runAsUser(EDITS);
  });

  afterAll(async () => {
    await workspace?.close();
  });

  it('answers the VS Code URL, the web hosts and the microagents', async () => {
    expect((await api('GET', '/vscode-url')).json).toEqual({ vscode_url: null });
    expect((await api('GET', '/web-hosts')).json).toEqual({
      hosts: { 'http://localhost:8011': 8011, 'http://localhost:8012': 8012 },
    });
    const { microagents } = (await api('GET', '/microagents')).json as {
      microagents: { name: string; type: string; content: string }[];
    };
    expect(microagents.find((m) => m.name === 'house-rules')).toEqual({
      name: 'house-rules',
      type: 'repo',
      content: expect.stringContaining('Use tabs.'),
      triggers: [],
      inputs: [],
      tools: [],
    });
    expect(microagents.find((m) => m.name === 'github')).toMatchObject({ type: 'knowledge' });
  });

  it('documents every workspace route, the upload as a multipart form', async () => {
    const doc = (await service.api('GET', '/api/openapi.json', { key: null })).json as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
    };
    const prefix = '/api/conversations/{id}';
    for (const path of [
      '/vscode-url',
      '/web-hosts',
      '/microagents',
      '/list-files',
      '/select-file',
      '/zip-directory',
      '/git/changes',
      '/git/diff',
    ]) {
      expect(Object.keys(doc.paths[`${prefix}${path}`] ?? {}), path).toEqual(['get']);
    }
    const uploadBody = doc.paths[`${prefix}/upload-files`]?.post?.requestBody?.content ?? {};
    expect(Object.keys(uploadBody)).toEqual(['multipart/form-data']);
  });

  it('lists one level: folders first, without .git and what .gitignore excludes', async () => {
    expect((await api('GET', '/list-files')).json).toEqual([
      '.openhands/',
      'docs/',
      'etc-link/',
      'src/',
      '.gitignore',
      'added.txt',
      'hello.txt',
      'image.png',
      'trap.txt',
    ]);
    expect((await api('GET', '/list-files?path=src')).json).toEqual(['src/keep.ts']);
    expect((await api('GET', '/list-files?path=.openhands/microagents/')).json).toEqual([
      '.openhands/microagents/house-rules.md',
    ]);
    expect(await api('GET', '/list-files?path=nope')).toMatchObject({
      status: 404,
      json: { detail: 'Directory not found: nope' },
    });
    for (const path of ['../', '/etc', 'etc-link', 'src/../..']) {
      expect((await api('GET', `/list-files?path=${encodeURIComponent(path)}`)).json).toEqual({
        detail: [{ type: 'value_error', loc: ['query', 'path'], msg: OUTSIDE, input: path }],
      });
    }
  });

  it('opens text files and refuses binary files and paths that leave the workspace', async () => {
    expect(await api('GET', '/select-file?file=hello.txt')).toMatchObject({
      status: 200,
      json: { code: 'changed\n' },
    });
    expect(await api('GET', '/select-file?file=image.png')).toMatchObject({
      status: 415,
      json: { detail: 'Unable to open binary file: image.png' },
    });
    expect((await api('GET', '/select-file?file=missing.txt')).status).toBe(404);
    for (const file of ['../../etc/passwd', '/etc/passwd', 'etc-link/passwd', 'trap.txt']) {
      const refused = await api('GET', `/select-file?file=${encodeURIComponent(file)}`);
      expect(refused.status, file).toBe(422);
      expect(refused.json).toEqual({
        detail: [{ type: 'value_error', loc: ['query', 'file'], msg: OUTSIDE, input: file }],
      });
    }
  });

  it('reports git changes and diffs relative to HEAD', async () => {
    const changes = (await api('GET', '/git/changes')).json as { status: string; path: string }[];
    expect(changes.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { status: 'A', path: 'added.txt' },
      { status: 'R', path: 'docs/b.md' },
      { status: 'M', path: 'hello.txt' },
      { status: 'D', path: 'src/old.ts' },
    ]);
    expect((await api('GET', '/git/diff?path=hello.txt')).json).toEqual({
      modified: 'changed\n',
      original: 'hello\n',
    });
    expect((await api('GET', '/git/diff?path=src/old.ts')).json).toEqual({ modified: '', original: 'old\n' });
    expect((await api('GET', '/git/diff?path=added.txt')).json).toEqual({ modified: 'new\n', original: '' });
    expect((await api('GET', '/git/diff?path=etc-link%2Fpasswd')).status).toBe(422);
    expect((await api('GET', '/git/diff')).json).toMatchObject({
      detail: [{ type: 'missing', loc: ['query', 'path'] }],
    });
  });

  it('uploads files with their bytes unchanged, skipping those over 25 MiB', async () => {
    onTestFinished(() => runAsUser('rm -f upload.bin trap.txt && ln -s /tmp/outside.txt trap.txt'));
    const binary = randomBytes(300_000);
    const response = await upload([
      { name: 'upload.bin', bytes: binary },
      { name: 'trap.txt', bytes: Buffer.from('uploaded') },
      { name: 'big.iso', bytes: Buffer.alloc(25 * 1024 * 1024 + 1) },
    ]);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.toString())).toEqual({
      uploaded_files: [`${W}/upload.bin`, `${W}/trap.txt`],
      skipped_files: [{ name: 'big.iso', reason: 'File too large' }],
    });
    const check = await execIn(
      sandboxId,
      `sha256sum ${W}/upload.bin | cut -d' ' -f1; stat -c %U:%F ${W}/upload.bin ${W}/trap.txt; cat /tmp/outside.txt; ls ${W}/big.iso 2>&1 || true`,
    );
    expect(check.stdout.split('\n').slice(0, 5)).toEqual([
      sha256(binary),
      'dockhand:regular file',
      'dockhand:regular file',
      'keep',
      expect.stringContaining('No such file'),
    ]);
  });

  it('refuses uploads without files, with over 100 files, or over 100 MiB', async () => {
    expect((await api('POST', '/upload-files', { body: { files: [] } })).json).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'files'], msg: 'Field required', input: null }],
    });
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `f${i}.txt`, bytes: Buffer.from('x') }));
    const tooMany = await upload(many);
    expect(tooMany.status).toBe(413);
    expect(JSON.parse(tooMany.body.toString())).toEqual({ detail: 'Too many files (max 100)' });

    // Only the head of a request that announces 200 MiB: the answer comes before any body is sent.
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(service.port, '127.0.0.1', () =>
        socket.write(
          [
            `POST /api/conversations/${id}/upload-files HTTP/1.1`,
            `Host: 127.0.0.1:${service.port}`,
            `X-Session-API-Key: ${service.key}`,
            'Content-Type: multipart/form-data; boundary=x',
            `Content-Length: ${200 * 1024 * 1024}`,
            '',
            '',
          ].join('\r\n'),
        ),
      );
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString();
        if (received.includes('}')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', reject);
    });
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).toContain('{"detail":"Request body too large (max 104857600 bytes)"}');
  });

  it('downloads the working directory as workspace.zip', async () => {
    const response = await fetchRaw('/zip-directory');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="workspace.zip"');
    const entries = new Map(readZip(response.body).map((e) => [e.name, e]));
    expect(entries.get('hello.txt')?.data.toString()).toBe('changed\n');
    expect(entries.get('src/keep.ts')?.data.toString()).toBe('keep\n');
    expect(entries.get('image.png')?.data).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1]));
    for (const [link, target] of [
      ['etc-link', '/etc'],
      ['trap.txt', '/tmp/outside.txt'],
    ] as const) {
      expect(entries.get(link)?.data.toString()).toBe(target);
      expect((entries.get(link)?.mode ?? 0) & 0o170000).toBe(0o120000);
    }
    expect(entries.has('.git/HEAD')).toBe(true);
    expect(entries.has('src/')).toBe(true);
    expect([...entries.keys()].some((name) => name.startsWith('project/') || name.startsWith('/'))).toBe(
      false,
    );
  });

  it('answers 404 for git routes once the workspace is no git repository', async () => {
    await runAsUser('mv .git ../git-aside');
    onTestFinished(() => runAsUser('mv ../git-aside .git'));
    expect(await api('GET', '/git/changes')).toMatchObject({
      status: 404,
      json: { detail: 'Not a git repository' },
    });
    expect((await api('GET', '/git/diff?path=hello.txt')).status).toBe(404);
  });

  it('answers 404 for an unknown conversation and 409 once the conversation is stopped', async () => {
    for (const path of ['/vscode-url', '/web-hosts', '/list-files', '/git/changes', '/zip-directory']) {
      expect(await service.api('GET', `/api/conversations/nope${path}`)).toMatchObject({
        status: 404,
        json: { detail: 'Conversation nope not found' },
      });
    }
    expect((await api('POST', '/stop')).status).toBe(200);
    onTestFinished(async () => {
      expect((await api('POST', '/start', { body: {} })).status).toBe(200);
      await until(
        () => conversationInfo(service, id),
        (c) => c.status === 'RUNNING' && c.agent_state === 'stopped',
        'the conversation to run again',
      );
    });
    const notRunning = { detail: `Sandbox for conversation ${id} is not running` };
    for (const path of [
      '/microagents',
      '/list-files',
      '/select-file?file=hello.txt',
      '/zip-directory',
      '/git/changes',
      '/git/diff?path=hello.txt',
    ]) {
      expect(await api('GET', path), path).toMatchObject({ status: 409, json: notRunning });
    }
    expect((await upload([{ name: 'late.txt', bytes: Buffer.from('x') }])).status).toBe(409);
    expect((await api('GET', '/web-hosts')).json).toEqual({ hosts: {} });
    expect((await api('GET', '/vscode-url')).json).toEqual({ vscode_url: null });
  });
});
