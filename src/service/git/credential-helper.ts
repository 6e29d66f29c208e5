import type { GitProvider } from '../../shared/api/settings';

/** The credential helper's file name, installed where the sandbox user can run but not change it. */
export const CREDENTIAL_HELPER_NAME = 'git-credential-dockhand';

/** The environment variable that carries a provider's token into a sandbox command: `GITHUB_TOKEN` etc. */
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
 * git-credential-dockhand PROTOCOL HOST VARIABLE USERNAME ACTION: answers `get` for PROTOCOL://HOST only,
 * with the token from the environment variable VARIABLE of the command git runs in. It never stores
 * anything (`store` and `erase` are ignored), so the token stays in that command's environment.
 */
export const CREDENTIAL_HELPER_SCRIPT = `#!/bin/sh
if [ "$5" != get ]; then cat >/dev/null; exit 0; fi
protocol=
host=
while IFS= read -r line && [ -n "$line" ]; do
  case "$line" in
    protocol=*) protocol="\${line#protocol=}" ;;
    host=*) host="\${line#host=}" ;;
  esac
done
[ "$protocol" = "$1" ] && [ "$host" = "$2" ] || exit 0
token="$(printenv "$3")" || exit 0
user="$4"
case "$token" in
  '' | *'
'*) exit 0 ;;
  # Bitbucket app passwords are stored as "username:app_password".
  *:*) if [ "$user" = x-token-auth ]; then user="\${token%%:*}"; token="\${token#*:}"; fi ;;
esac
printf 'username=%s\\npassword=%s\\n' "$user" "$token"
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

/** The helper command line for one host (git appends the action and runs it through a shell). */
export function helperCommand(helperPath: string, target: CredentialTarget): string {
  const words = [helperPath, target.scheme, target.host, tokenEnvName(target.provider)];
  return [...words, TOKEN_USERNAMES[target.provider]].map(shellWord).join(' ');
}

function shellWord(word: string): string {
  return word.replace(/[^A-Za-z0-9_/.:@%+=,-]/g, '\\$&');
}
