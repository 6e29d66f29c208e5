import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { TERMINAL_KEY_PROTOCOL_PREFIX, TERMINAL_PROTOCOL } from '../../src/shared/api/terminal';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  closeSandboxService,
  docker,
  dockerSkipReason,
  startSandboxService,
  createConversation,
  useScriptedModel,
} from '../sandbox/support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the terminal socket tests: ${skip}`);

interface Refused {
  status: number;
  body: unknown;
}

interface HandshakeOptions {
  headers?: Record<string, string>;
  protocols?: string[];
  origin?: string;
  /** Appended to the path, e.g. `?session_api_key=...`. */
  query?: string;
}

/** Opens the terminal websocket; resolves with the socket, or with the HTTP answer that refused it. */
function handshake(service: TestService, id: string, options: HandshakeOptions = {}) {
  const url = `ws://127.0.0.1:${service.port}/api/conversations/${id}/terminal${options.query ?? ''}`;
  return new Promise<WebSocket | Refused>((resolve, reject) => {
    const ws = new WebSocket(url, options.protocols ?? [], {
      headers: options.headers ?? {},
      ...(options.origin ? { origin: options.origin } : {}),
    });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    ws.once('error', reject);
  });
}

/** What a terminal socket printed, as text, and whether it closed. */
function screen(ws: WebSocket) {
  const state = { text: '', messages: [] as unknown[], closed: false };
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) state.text += data.toString();
    else state.messages.push(JSON.parse(data.toString()));
  });
  ws.once('close', () => (state.closed = true));
  return state;
}

// The last case rotates the session key every other case opens its terminals with: the cases keep their order.
describe.skipIf(skip !== null)('the terminal websocket of a conversation', { shuffle: false }, () => {
  let llm: ScriptedLlm;
  let service: TestService;
  let id: string;
  let sandboxKey: string;
  let container: Docker.Container;
  let origin: string;

  const isTerminal = (exec: Docker.ExecInspectInfo) =>
    exec.ProcessConfig.arguments.some((arg) => arg.includes('exec /bin/bash -i'));

  /** The execs of the person's terminal (bash started by its pid-recording script) the container has. */
  async function terminalExecs(ids?: string[]): Promise<Docker.ExecInspectInfo[]> {
    const listed = ids ?? (await container.inspect()).ExecIDs ?? [];
    const execs = await Promise.all(
      listed.map((exec) =>
        docker
          .getExec(exec)
          .inspect()
          .catch(() => null),
      ),
    );
    return execs.filter((exec): exec is Docker.ExecInspectInfo => exec !== null && isTerminal(exec));
  }

  /**
   * The answer to a handshake that must be refused, and proof that no shell was started for it: of the execs
   * created meanwhile (the service runs its own, e.g. git status for the UI), none is a terminal.
   */
  async function refusal(options: HandshakeOptions): Promise<Refused> {
    const before = (await container.inspect()).ExecIDs ?? [];
    const answer = await handshake(service, id, options);
    if (answer instanceof WebSocket) {
      answer.close();
      throw new Error('the handshake was accepted');
    }
    const created = ((await container.inspect()).ExecIDs ?? []).filter((exec) => !before.includes(exec));
    expect(await terminalExecs(created)).toEqual([]);
    expect(await terminalExecs()).toEqual([]);
    return answer;
  }

  /** Waits until a terminal's exec no longer runs (or no longer exists). */
  async function shellEnded(shell: Docker.ExecInspectInfo | undefined, what: string): Promise<void> {
    if (!shell) throw new Error(`No terminal exec was found: ${what}`);
    const running = async () =>
      (
        await docker
          .getExec(shell.ID)
          .inspect()
          .catch(() => null)
      )?.Running ?? false;
    await until(running, (still) => !still, what);
  }

  const withKey = (key: string) => ({ headers: { 'X-Session-API-Key': key } });
  const asBrowser = (key: string) => ({
    protocols: [TERMINAL_PROTOCOL, `${TERMINAL_KEY_PROTOCOL_PREFIX}${key}`],
  });

  beforeAll(async () => {
    llm = await startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: 'Work' } }] });
    service = await startSandboxService();
    origin = `http://127.0.0.1:${service.port}`;
    await useScriptedModel(service, llm);
    llm.push({ text: 'Ready.' });
    const created = await createConversation(service, { initial_user_msg: 'Wait' });
    id = created.id;
    const info = created.info;
    expect([info.status, info.agent_state]).toEqual(['RUNNING', 'awaiting_user_input']);
    sandboxKey = info.session_api_key as string;
    container = docker.getContainer(`dockhand-${info.sandbox_id as string}`);
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
  });

  it('refuses a handshake without a key, with a wrong key or with the sandbox key, before any shell starts', async () => {
    const unauthorized = { status: 401, body: { detail: 'Unauthorized' } };
    expect(await refusal({})).toEqual(unauthorized);
    expect(await refusal({ ...withKey('wrong-key'), origin })).toEqual(unauthorized);
    expect(await refusal({ ...asBrowser('wrong-key'), origin })).toEqual(unauthorized);
    expect(sandboxKey.length).toBeGreaterThan(20);
    expect(await refusal({ ...withKey(sandboxKey), origin })).toEqual(unauthorized);
    expect(await refusal({ ...asBrowser(sandboxKey), origin })).toEqual(unauthorized);
    // The key is never taken from the URL here, where it would be logged.
    expect(await refusal({ query: `?session_api_key=${service.key}`, origin })).toEqual(unauthorized);
  });

  it('refuses the session key from a foreign page or through a foreign Host', async () => {
    for (const page of ['http://evil.example', 'http://127.0.0.1:1', 'null']) {
      expect(await refusal({ ...asBrowser(service.key), origin: page })).toEqual({
        status: 403,
        body: { detail: 'Origin not allowed' },
      });
    }
    for (const host of ['evil.example', `evil.example:${service.port}`, '127.0.0.1:1']) {
      expect(
        await refusal({ ...withKey(service.key), headers: { ...withKey(service.key).headers, Host: host } }),
      ).toEqual({
        status: 403,
        body: { detail: 'Invalid host header' },
      });
    }
  });

  // First of the shells: a closed one holds its place until its shell has ended.
  it('opens at most 4 terminals on a conversation', async () => {
    const open: WebSocket[] = [];
    for (let i = 0; i < 4; i++) {
      const ws = await handshake(service, id, withKey(service.key));
      if (!(ws instanceof WebSocket)) throw new Error(`refused: ${JSON.stringify(ws)}`);
      open.push(ws);
    }
    // Each is a shell of its own, the first still there after the others opened.
    const [first] = open;
    const firstScreen = first ? screen(first) : null;
    first?.send(Buffer.from('echo first-$((40 + 2))\n'));
    await until(
      async () => firstScreen?.text ?? '',
      (text) => text.includes('first-42'),
      'the first shell',
    );
    // A socket is open before its exec has started: on a busy machine the last one may still be starting.
    await until(
      async () => (await terminalExecs()).filter((exec) => exec.Running).length,
      (n) => n === 4,
      'four running shells',
    );
    const fifth = await handshake(service, id, withKey(service.key));
    expect(fifth).toEqual({ status: 409, body: { detail: expect.stringContaining('4 terminals open') } });
    for (const ws of open) ws.close();
    await until(
      async () => (await terminalExecs()).filter((exec) => exec.Running).length,
      (n) => n === 0,
      'the shells to end',
    );
  });

  it('gives the session key from an allowed page a shell, and ends the shell when the socket closes', async () => {
    const before = (await container.inspect()).ExecIDs ?? [];
    const ws = await handshake(service, id, { ...asBrowser(service.key), origin });
    if (!(ws instanceof WebSocket)) throw new Error(`refused: ${JSON.stringify(ws)}`);
    // Only the terminal protocol is named in the answer, never the key offered beside it.
    expect(ws.protocol).toBe(TERMINAL_PROTOCOL);
    const output = screen(ws);
    ws.send(JSON.stringify({ type: 'resize', cols: 101, rows: 31 }));
    ws.send(Buffer.from('echo "hello-$((6 * 7))"; stty size; whoami; pwd\n'));
    const seen = await until(
      async () => output.text,
      (text) => /dockhand\r?\n\/workspace\/project/.test(text),
      'the shell to answer',
    );
    expect(seen).toContain('hello-42');
    expect(seen).toContain('31 101');
    const [shell, ...others] = (await terminalExecs()).filter((exec) => !before.includes(exec.ID));
    expect(others).toEqual([]);
    expect(shell?.Running).toBe(true);
    expect(shell?.ProcessConfig.tty).toBe(true);

    ws.close();
    await shellEnded(shell, 'the shell to end');
  });

  it('answers a bad message with an error and keeps the shell', async () => {
    const ws = await handshake(service, id, { ...withKey(service.key) });
    if (!(ws instanceof WebSocket)) throw new Error(`refused: ${JSON.stringify(ws)}`);
    const output = screen(ws);
    ws.send('{"type":"resize","cols":0}');
    ws.send('not json');
    ws.send(Buffer.from('echo still-$((1 + 1))\n'));
    await until(
      async () => output.text,
      (text) => text.includes('still-2'),
      'the shell to answer',
    );
    expect(output.messages).toEqual([
      { type: 'error', detail: expect.stringContaining('Invalid message') },
      { type: 'error', detail: expect.stringContaining('Invalid message') },
    ]);
    ws.send(Buffer.from('exit 3\n'));
    await until(async () => output.closed, Boolean, 'the socket to close');
    expect(output.messages.at(-1)).toEqual({ type: 'exit', exit_code: 3 });
  });

  it('cuts off a client that stops reading a flood of output, and ends its shell', async () => {
    const before = (await container.inspect()).ExecIDs ?? [];
    const ws = await handshake(service, id, withKey(service.key));
    if (!(ws instanceof WebSocket)) throw new Error(`refused: ${JSON.stringify(ws)}`);
    const output = screen(ws);
    ws.send(Buffer.from('stty -echo; echo flood-start; head -c 200000000 /dev/zero | tr "\\0" x\n'));
    await until(
      async () => output.text,
      (text) => text.includes('flood-start'),
      'the flood to start',
    );
    ws.pause();
    const [shell] = (await terminalExecs()).filter((exec) => !before.includes(exec.ID));
    await shellEnded(shell, 'the shell of the stalled client to end');
    ws.terminate();
  });

  it('closes the socket on a frame over 1 MiB, and ends its shell', async () => {
    const before = (await container.inspect()).ExecIDs ?? [];
    const ws = await handshake(service, id, withKey(service.key));
    if (!(ws instanceof WebSocket)) throw new Error(`refused: ${JSON.stringify(ws)}`);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const output = screen(ws);
    ws.send(Buffer.from('echo big-$((20 + 22))\n'));
    await until(
      async () => output.text,
      (text) => text.includes('big-42'),
      'the shell to answer',
    );
    const [shell] = (await terminalExecs()).filter((exec) => !before.includes(exec.ID));
    ws.send(Buffer.alloc(1024 * 1024 + 1, 'x'));
    expect(await closed).toBe(1009);
    await shellEnded(shell, 'the shell of the oversized frame to end');
  });

  // Last: it changes the key.
  it('closes a terminal opened with a key that has been rotated, and ends its shell', async () => {
    const before = (await container.inspect()).ExecIDs ?? [];
    const ws = await handshake(service, id, withKey(service.key));
    if (!(ws instanceof WebSocket)) throw new Error(`refused: ${JSON.stringify(ws)}`);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    // The shell answers first, so the one to end is known before the key changes.
    const output = screen(ws);
    ws.send(Buffer.from('echo before-$((2 * 21))\n'));
    await until(
      async () => output.text,
      (text) => text.includes('before-42'),
      'the shell to answer',
    );
    const [shell] = (await terminalExecs()).filter((exec) => !before.includes(exec.ID));
    expect(shell?.Running).toBe(true);
    const rotated = await service.api('POST', '/api/session-api-key/rotate');
    expect(rotated.status).toBe(200);
    expect(await closed).toBe(1001);
    await shellEnded(shell, 'the shell to end');
  });
});
