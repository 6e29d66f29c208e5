import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import type { RouteSpec } from './routes';

function openApiPath(path: string): string {
  return path.replace(/[:*](\w+)/g, '{$1}');
}

/** The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with. */
export function buildOpenApi(routes: RouteSpec[], version: string): unknown {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'SessionApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Session-API-Key',
  });
  for (const route of routes) {
    registry.registerPath({
      method: route.method,
      path: openApiPath(route.path),
      summary: route.summary,
      tags: [route.tag],
      security: route.open ? [] : [{ SessionApiKey: [] }],
      request: {
        ...(route.body
          ? {
              body: {
                required: !route.bodyOptional,
                content: { 'application/json': { schema: route.body } },
              },
            }
          : {}),
        ...(route.multipartBody
          ? { body: { required: true, content: { 'multipart/form-data': { schema: route.multipartBody } } } }
          : {}),
        ...(route.query ? { query: route.query as z.ZodObject } : {}),
        ...(route.params ? { params: route.params as z.ZodObject } : {}),
      },
      responses: Object.fromEntries(
        Object.entries(route.responses).map(([status, response]) => [
          status,
          {
            description: response.description,
            ...(response.schema
              ? { content: { [response.contentType ?? 'application/json']: { schema: response.schema } } }
              : {}),
          },
        ]),
      ),
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Dockhand Agent Conversation Service',
      version,
      description:
        'OpenHands-compatible API of Dockhand. Send the session key in the X-Session-API-Key header.',
    },
    servers: [{ url: '/' }],
  });
}
