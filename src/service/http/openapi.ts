import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { DetailBody, ValidationErrorBody } from '../../shared/api/errors';
import { readsJsonBody, type RouteResponse, type RouteSpec } from './routes';

function openApiPath(path: string): string {
  return path.replace(/[:*](\w+)/g, '{$1}');
}

/** What any route that reads a JSON body can answer before its handler runs (api-contract §1, §15). */
const BODY_RESPONSES: Record<number, RouteResponse> = {
  413: { description: 'Request body too large', schema: DetailBody },
  415: { description: 'The body is not application/json', schema: DetailBody },
  422: { description: 'Invalid request', schema: ValidationErrorBody },
};

function responsesOf(route: RouteSpec): Record<number, RouteResponse> {
  return readsJsonBody(route) ? { ...BODY_RESPONSES, ...route.responses } : route.responses;
}

/** What a document says about itself: title, description and the descriptions of its tags. */
export interface DocumentAbout {
  title: string;
  description: string;
  tags: { name: string; description: string }[];
}

/** The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with. */
export function buildOpenApi(routes: RouteSpec[], version: string, about: DocumentAbout): unknown {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'SessionApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Session-API-Key',
  });
  // Only event streams take the key in the query, for clients that cannot send headers.
  registry.registerComponent('securitySchemes', 'SessionApiKeyQuery', {
    type: 'apiKey',
    in: 'query',
    name: 'session_api_key',
  });
  for (const route of routes) {
    registry.registerPath({
      method: route.method,
      path: openApiPath(route.path),
      summary: route.summary,
      tags: [route.tag],
      security: route.open
        ? []
        : [{ SessionApiKey: [] }, ...(route.keyInQuery ? [{ SessionApiKeyQuery: [] }] : [])],
      // The key of the conversation's running sandbox works here too; elsewhere only the session key.
      ...(route.sandboxKey ? { 'x-sandbox-key': true } : {}),
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
        Object.entries(responsesOf(route)).map(([status, response]) => [
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
    info: { title: about.title, version, description: about.description },
    servers: [{ url: '/' }],
    tags: about.tags,
  });
}
