import { AliveBody, HealthBody, RotatedKey, ServerInfo } from '../../shared/api/server';
import type { ServiceContext } from '../context';
import agentServerSection from '../agent-server/openapi-v1.md?raw';
import { buildOpenApi, type DocumentAbout } from '../http/openapi';
import { defineRoute, type RouteSpec } from '../http/routes';

const SERVICE: DocumentAbout = {
  title: 'Dockhand Agent Conversation Service',
  description: 'OpenHands-compatible API of Dockhand. Send the session key in the X-Session-API-Key header.',
  tags: [{ name: 'v1', description: agentServerSection }],
};

/** Health, server information, the OpenAPI document and key rotation. */
export function serverRoutes(
  ctx: ServiceContext,
  about: {
    startedAt: Date;
    /** The Docker engine's state now, with its fix when it cannot be used. */
    dockerStatus: () => Promise<ServerInfo['docker']>;
    allRoutes: () => RouteSpec[];
    runningConversations: () => number;
  },
): RouteSpec[] {
  const { allRoutes, runningConversations } = about;
  let openApi: unknown = null;
  return [
    defineRoute({
      method: 'get',
      path: '/alive',
      tag: 'server',
      summary: 'Liveness probe',
      open: true,
      responses: { 200: { description: 'Alive', schema: AliveBody } },
      handler: () => ({ status: 'ok' as const }),
    }),
    defineRoute({
      method: 'get',
      path: '/health',
      tag: 'server',
      summary: 'Health probe',
      open: true,
      responses: { 200: { description: 'Healthy', schema: HealthBody } },
      handler: () => 'OK',
    }),
    defineRoute({
      method: 'get',
      path: '/api/openapi.json',
      tag: 'server',
      summary: 'This document',
      open: true,
      responses: { 200: { description: 'OpenAPI 3.1 document' } },
      handler: () => (openApi ??= buildOpenApi(allRoutes(), ctx.version, SERVICE)),
    }),
    defineRoute({
      method: 'get',
      path: '/server_info',
      tag: 'server',
      summary: 'Version, uptime, Docker and keychain diagnostics',
      responses: { 200: { description: 'Server information', schema: ServerInfo } },
      handler: async () => ({
        uptime: Math.round((Date.now() - about.startedAt.getTime()) / 1000),
        version: ctx.version,
        docker: await about.dockerStatus(),
        secret_storage: ctx.sessionKey.storage,
        keychain: ctx.secrets.status,
        running_conversations: runningConversations(),
        live_sandboxes: ctx.sandboxes.liveCount(),
        sandbox: ctx.sandboxes.describe(),
        data_dir: ctx.dataDir,
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/session-api-key/rotate',
      tag: 'server',
      summary: 'Replace the session API key; the old one stops working at once',
      responses: { 200: { description: 'The new key', schema: RotatedKey } },
      handler: async () => ({ session_api_key: await ctx.sessionKey.rotate() }),
    }),
  ];
}
