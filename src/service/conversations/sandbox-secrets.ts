import type { ServiceContext } from '../context';
import type { StartRequest } from './conversation-store';

type Sources = Pick<ServiceContext, 'customSecrets'>;

function exposesCustomSecrets(request: StartRequest): boolean {
  return request.expose_custom_secrets !== false;
}

/**
 * The names of the secrets a conversation's sandbox shell has as environment variables: the user's custom
 * secrets, unless the conversation opted out. Git-provider tokens are never among them: git gets the
 * repository's provider token through the credential broker (`../git/credential-broker.ts`).
 */
export function sandboxSecretNames(ctx: Sources, request: StartRequest): string[] {
  return exposesCustomSecrets(request) ? ctx.customSecrets.list().map((secret) => secret.name) : [];
}

/** Those secrets by name, with their values (never written to disk: they become per-exec environment). */
export async function sandboxSecretValues(
  ctx: Sources,
  request: StartRequest,
): Promise<Record<string, string>> {
  return exposesCustomSecrets(request) ? await ctx.customSecrets.values() : {};
}

/** The custom secrets the agent is told about (names and descriptions). */
export function exposedCustomSecrets(ctx: Sources, request: StartRequest) {
  return exposesCustomSecrets(request) ? ctx.customSecrets.list() : [];
}
