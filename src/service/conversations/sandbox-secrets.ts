import type { ServiceContext } from '../context';
import { tokenEnvName } from '../git/credential-helper';
import type { StartRequest } from './conversation-store';

type Sources = Pick<ServiceContext, 'customSecrets' | 'providerTokens'>;

function exposesCustomSecrets(request: StartRequest): boolean {
  return request.expose_custom_secrets !== false;
}

/**
 * The names of the secrets a conversation's sandbox shell has as environment variables: the user's custom
 * secrets (unless the conversation opted out) and a `<PROVIDER>_TOKEN` for each stored git provider.
 */
export function sandboxSecretNames(ctx: Sources, request: StartRequest): string[] {
  const custom = exposesCustomSecrets(request) ? ctx.customSecrets.list().map((secret) => secret.name) : [];
  return [...custom, ...ctx.providerTokens.list().map((stored) => tokenEnvName(stored.provider))];
}

/** Those secrets by name, with their values (never written to disk: they become per-exec environment). */
export async function sandboxSecretValues(
  ctx: Sources,
  request: StartRequest,
): Promise<Record<string, string>> {
  const env = exposesCustomSecrets(request) ? await ctx.customSecrets.values() : {};
  for (const { provider } of ctx.providerTokens.list()) {
    const token = await ctx.providerTokens.token(provider);
    if (token) env[tokenEnvName(provider)] = token.token;
  }
  return env;
}

/** The custom secrets the agent is told about (names and descriptions). */
export function exposedCustomSecrets(ctx: Sources, request: StartRequest) {
  return exposesCustomSecrets(request) ? ctx.customSecrets.list() : [];
}
