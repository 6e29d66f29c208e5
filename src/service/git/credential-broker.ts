import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { SandboxWorkspace } from '../sandbox/sandbox-workspace';
import { type CredentialTarget, credentialSocketPath } from './credential-helper';

/** The broker's file name beside the credential helper. */
export const CREDENTIAL_BROKER_NAME = 'dockhand-git-credential-broker';

/** The JSON-RPC method the broker calls for each request of the helper. */
const METHOD = 'git/credential';
/** The notification the broker sends once its socket listens. */
const READY = 'git/ready';
/** How long the broker may take to listen (python's start on a busy machine). */
const READY_TIMEOUT_MS = 15_000;

/**
 * dockhand-git-credential-broker SOCKET: a long-lived process in the sandbox, started by the service over the
 * same stdio channel as MCP stdio servers (so it needs no network route to the service). It creates SOCKET's
 * folder (0700, refusing one that is not the user's own or is open to others), listens there, and relays each
 * helper request `{"protocol","host"}` to the service as a JSON-RPC request on stdout; the answer on stdin
 * (`{"token"}` or `{}`) goes back to the helper. It says when it listens (READY), and ends when the service
 * closes its stdin.
 */
export const CREDENTIAL_BROKER_SCRIPT = `#!/usr/bin/env python3
import json, os, socket, stat, sys, threading

socket_path = sys.argv[1]
folder = os.path.dirname(socket_path)
os.umask(0o077)
try:
    os.mkdir(folder, 0o700)
except FileExistsError:
    pass
info = os.lstat(folder)
if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
    sys.exit("refusing %s: not a folder of this user closed to others" % folder)
try:
    os.unlink(socket_path)
except FileNotFoundError:
    pass
server = socket.socket(socket.AF_UNIX)
server.bind(socket_path)
server.listen(16)
sys.stdout.write(json.dumps({"jsonrpc": "2.0", "method": "${READY}"}) + "\\n")
sys.stdout.flush()

lock = threading.Lock()
waiting = {}
counter = [0]


def read_answers():
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        with lock:
            slot = waiting.pop(message.get("id"), None)
        if slot is not None:
            result = message.get("result")
            slot[1] = result if isinstance(result, dict) else {}
            slot[0].set()
    os._exit(0)


def serve(connection):
    with connection:
        connection.settimeout(30)
        try:
            data = b""
            while not data.endswith(b"\\n") and len(data) < 4096:
                chunk = connection.recv(4096)
                if not chunk:
                    break
                data += chunk
            request = json.loads(data)
            params = {"protocol": str(request.get("protocol", "")), "host": str(request.get("host", ""))}
        except (OSError, ValueError, AttributeError):
            return
        slot = [threading.Event(), {}]
        with lock:
            counter[0] += 1
            call = counter[0]
            waiting[call] = slot
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": call, "method": "${METHOD}", "params": params}) + "\\n")
            sys.stdout.flush()
        slot[0].wait(30)
        with lock:
            waiting.pop(call, None)
        try:
            connection.sendall((json.dumps(slot[1]) + "\\n").encode())
        except OSError:
            pass


threading.Thread(target=read_answers, daemon=True).start()
while True:
    connection, _ = server.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
`;

export interface CredentialBrokerOptions {
  workspace: Pick<SandboxWorkspace, 'sandboxId' | 'installHelper' | 'mcpStdioTransport'>;
  /** The only protocol and host answered: the conversation's repository's. */
  target: CredentialTarget;
  /** The provider's token as stored now (read on each request, so a changed token is used). */
  token: () => Promise<string | null>;
  /** Told of each request (never the token) and whether it was answered. */
  log: (request: { protocol: string; host: string; answered: boolean }) => void;
}

export interface CredentialBroker {
  readonly socketPath: string;
  close(): Promise<void>;
}

interface CredentialRequest {
  id: string | number;
  protocol: string;
  host: string;
}

function credentialRequest(message: JSONRPCMessage): CredentialRequest | null {
  if (!('method' in message) || !('id' in message) || message.method !== METHOD) return null;
  const params = (message.params ?? {}) as Record<string, unknown>;
  return {
    id: message.id,
    protocol: typeof params.protocol === 'string' ? params.protocol : '',
    host: typeof params.host === 'string' ? params.host : '',
  };
}

/**
 * Starts the sandbox's credential broker: git's helper asks it, it asks the service, and the service hands the
 * token only for the target's protocol and host. Everything else gets an empty answer.
 */
export async function startCredentialBroker(options: CredentialBrokerOptions): Promise<CredentialBroker> {
  const { workspace, target } = options;
  const socketPath = credentialSocketPath(workspace.sandboxId);
  const brokerPath = await workspace.installHelper(CREDENTIAL_BROKER_NAME, CREDENTIAL_BROKER_SCRIPT);
  const transport: Transport = await workspace.mcpStdioTransport({
    name: 'git credentials',
    command: 'python3',
    args: [brokerPath, socketPath],
    env: {},
  });
  const answer = async (request: CredentialRequest): Promise<Record<string, string>> => {
    if (request.protocol !== target.scheme || request.host !== target.host) return {};
    const token = await options.token();
    return token ? { token } : {};
  };
  let listening: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  transport.onmessage = (message) => {
    if ('method' in message && message.method === READY && !('id' in message)) listening();
    const request = credentialRequest(message);
    if (!request) return;
    void answer(request)
      .catch(() => ({}))
      .then(async (result) => {
        options.log({ protocol: request.protocol, host: request.host, answered: 'token' in result });
        await transport.send({ jsonrpc: '2.0', id: request.id, result });
      })
      .catch(() => undefined);
  };
  await transport.start();
  // Resolved only once the socket listens: the agent's git commands wait for this, and would find no socket.
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error('The git credential broker did not start listening')),
      READY_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([ready, timeout]);
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { socketPath, close: () => transport.close() };
}
