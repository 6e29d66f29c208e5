import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acpAgent } from '../../src/service/acp/agent-catalog';

/** What the stand-in agent does next time it starts: answer properly, or one way of failing. */
export type AgentMode = 'ok' | 'crash-on-prompt' | 'hang-at-start' | 'garbage-on-prompt';

/**
 * A minimal ACP agent in plain Node, put where Claude Code's entry is in an install folder, so the service
 * starts it like the real one: it answers `initialize`, `session/new` and `session/prompt` (a message
 * `pong: <prompt>`), or fails as the `mode` file beside it says. Only the failure paths use it; the real
 * CLIs are tested in their own files.
 */
const SCRIPT = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const mode = fs.readFileSync(path.join(__dirname, 'mode'), 'utf8').trim();
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let at;
  while ((at = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    if (line.trim()) handle(JSON.parse(line));
  }
});
process.stdin.on('end', () => process.exit(0));
function handle(message) {
  if (message.method === 'initialize') {
    if (mode === 'hang-at-start') return;
    send({ id: message.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  } else if (message.method === 'session/new') {
    send({ id: message.id, result: { sessionId: 'fake-session-' + process.pid } });
  } else if (message.method === 'session/prompt') {
    if (mode === 'crash-on-prompt') {
      process.stderr.write('fake agent: out of memory\n');
      process.exit(3);
    }
    if (mode === 'garbage-on-prompt') {
      process.stdout.write('this is not JSON-RPC\n');
      return;
    }
    const text = message.params.prompt.map((block) => block.text).join(' ');
    send({
      method: 'session/update',
      params: { sessionId: message.params.sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'pong: ' + text } } },
    });
    send({ id: message.id, result: { stopReason: 'end_turn' } });
  } else if (message.id !== undefined) {
    send({ id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
}
`;

export interface FaultyAgent {
  /** The install folder to hand the service. */
  dir: string;
  setMode(mode: AgentMode): void;
}

export function faultyAgent(): FaultyAgent {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-faulty-agent-'));
  const entry = path.join(dir, acpAgent('claude-code').launch('x64').entry);
  mkdirSync(path.dirname(entry), { recursive: true });
  // The real entry is an ES module; this one is CommonJS, which a package.json beside it says.
  writeFileSync(path.join(path.dirname(entry), 'package.json'), '{"type":"commonjs"}');
  writeFileSync(entry, SCRIPT);
  const setMode = (mode: AgentMode) => writeFileSync(path.join(path.dirname(entry), 'mode'), mode);
  setMode('ok');
  return { dir, setMode };
}
