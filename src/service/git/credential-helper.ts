import type { GitProvider } from '../../shared/api/settings';

/** The credential helper's file name, installed where the sandbox user can run but not change it. */
export const CREDENTIAL_HELPER_NAME = 'git-credential-dockhand';

/**
 * The environment variable that carries a provider's token into the one sandbox command that clones:
 * `GITHUB_TOKEN` etc. (never into the shell's environment).
 */
export function tokenEnvName(provider: GitProvider): string {
  return `${provider.toUpperCase()}_TOKEN`;
}

/** The username each provider expects with a token over HTTPS (enterprise hosts speak GitHub's terms). */
const TOKEN_USERNAMES: Record<GitProvider, string> = {
  github: 'x-access-token',
  gitlab: 'oauth2',
  bitbucket: 'x-token-auth',
  enterprise_sso: 'x-access-token',
};

/**
 * git-credential-dockhand PROTOCOL HOST VARIABLE USERNAME SOCKET ACTION: answers `get` for PROTOCOL://HOST only.
 * The token comes from the environment variable VARIABLE when the command git runs in has it (the clone at a
 * conversation's start), else from the service through the credential broker listening on SOCKET
 * (`credential-broker.ts`), so the sandbox's shell never holds it. It never stores anything (`store` and
 * `erase` are ignored). The socket's folder must be the user's own and closed to others, or it is not asked.
 */
export const CREDENTIAL_HELPER_SCRIPT = `#!/usr/bin/env python3
import json, os, socket, stat, sys

protocol, host, variable, user, socket_path, action = sys.argv[1:7]
if action != "get":
    sys.stdin.read()
    sys.exit(0)
request = {}
for line in sys.stdin:
    line = line.rstrip("\\n")
    if not line:
        break
    key, _, value = line.partition("=")
    request[key] = value
if request.get("protocol") != protocol or request.get("host") != host:
    sys.exit(0)


def ask_service():
    try:
        folder = os.lstat(os.path.dirname(socket_path))
        if not stat.S_ISDIR(folder.st_mode) or folder.st_uid != os.getuid() or folder.st_mode & 0o077:
            return ""
        with socket.socket(socket.AF_UNIX) as connection:
            connection.settimeout(30)
            connection.connect(socket_path)
            connection.sendall((json.dumps({"protocol": protocol, "host": host}) + "\\n").encode())
            answer = b""
            while not answer.endswith(b"\\n"):
                chunk = connection.recv(65536)
                if not chunk:
                    break
                answer += chunk
        token = json.loads(answer or b"{}").get("token")
        return token if isinstance(token, str) else ""
    except (OSError, ValueError):
        return ""


token = os.environ.get(variable) or ask_service()
if not token or "\\n" in token or "\\r" in token or "\\0" in token:
    sys.exit(0)
# Bitbucket app passwords are stored as "username:app_password".
if user == "x-token-auth" and ":" in token:
    user, token = token.split(":", 1)
sys.stdout.write("username=%s\\npassword=%s\\n" % (user, token))
`;

export interface CredentialTarget {
  provider: GitProvider;
  /** `hostname[:port]`, as git names it in the credential request. */
  host: string;
  /** `https` unless a test server speaks plain `http`. */
  scheme: 'https' | 'http';
}

/** The config key that attaches a helper to one host: `credential.https://<host>.helper`. */
export function helperConfigKey(target: CredentialTarget): string {
  return `credential.${target.scheme}://${target.host}.helper`;
}

/**
 * Where a sandbox's credential broker listens: a folder of its own in /tmp (the same path in a container and
 * on the host; a process sandbox's id keeps it apart from others), short enough for a unix socket's path.
 */
export function credentialSocketPath(sandboxId: string): string {
  return `/tmp/dockhand-git-${sandboxId}/socket`;
}

/** The helper command line for one host (git appends the action and runs it through a shell). */
export function helperCommand(helperPath: string, target: CredentialTarget, socketPath: string): string {
  const words = [helperPath, target.scheme, target.host, tokenEnvName(target.provider)];
  return [...words, TOKEN_USERNAMES[target.provider], socketPath].map(shellWord).join(' ');
}

function shellWord(word: string): string {
  return word.replace(/[^A-Za-z0-9_/.:@%+=,-]/g, '\\$&');
}
