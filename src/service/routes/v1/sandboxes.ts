import { DetailBody, SuccessBody, ValidationErrorBody } from '../../../shared/api/errors';
import {
  CreateSandboxBody,
  CreateSandboxQuery,
  SandboxBatch,
  SandboxBatchQuery,
  SandboxIdParams,
  SandboxInfo,
  SandboxPage,
  SandboxSearchQuery,
} from '../../../shared/api/sandboxes';
import type { SandboxService } from '../../sandbox/sandbox-service';
import type { SandboxSpecs } from '../../sandbox/sandbox-specs';
import { defineRoute, type RouteSpec } from '../../http/routes';
import { ValidationFailed } from '../../http/validation';
import { unknownSpec } from '../../sandbox/sandbox-models';

const NOT_FOUND = { description: 'Unknown sandbox', schema: DetailBody };
const INVALID = { description: 'Invalid request', schema: ValidationErrorBody };
const DOCKER_DOWN = { description: 'Docker is not available', schema: DetailBody };

/** The spec id from the query or the body; both given and different is a 422. */
function requestedSpecId(queryId: string | undefined, bodyId: string | null | undefined) {
  if (queryId !== undefined && bodyId != null && queryId !== bodyId) {
    throw new ValidationFailed([
      {
        type: 'value_error',
        loc: ['body', 'sandbox_spec_id'],
        msg: `Value error, sandbox_spec_id differs between the query (${queryId}) and the body (${bodyId})`,
        input: bodyId,
      },
    ]);
  }
  if (queryId !== undefined) return { id: queryId, location: 'query' as const };
  if (bodyId != null) return { id: bodyId, location: 'body' as const };
  return null;
}

/** V1 sandboxes (api-contract §11). */
export function sandboxesRoutes(sandboxes: SandboxService, specs: SandboxSpecs): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/sandboxes/search',
      tag: 'sandboxes',
      summary: 'Search sandboxes, newest first',
      query: SandboxSearchQuery,
      responses: { 200: { description: 'A page of sandboxes', schema: SandboxPage }, 422: INVALID },
      handler: ({ query }) =>
        sandboxes.search({
          pageId: query.page_id ?? null,
          limit: query.limit,
          ...(query.status__eq ? { status: query.status__eq } : {}),
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/sandboxes',
      tag: 'sandboxes',
      summary: 'Get sandboxes by id (null for each unknown id)',
      query: SandboxBatchQuery,
      responses: {
        200: { description: 'Sandboxes aligned with the ids', schema: SandboxBatch },
        422: INVALID,
      },
      handler: ({ query }) => query.id.map((id) => sandboxes.find(id)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/sandboxes/:sandbox_id',
      tag: 'sandboxes',
      summary: 'Get one sandbox',
      params: SandboxIdParams,
      responses: { 200: { description: 'The sandbox', schema: SandboxInfo }, 404: NOT_FOUND },
      handler: ({ params }) => sandboxes.get(params.sandbox_id),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/sandboxes',
      tag: 'sandboxes',
      summary: 'Create a sandbox (answers STARTING; it starts in the background)',
      query: CreateSandboxQuery,
      body: CreateSandboxBody,
      bodyOptional: true,
      responses: {
        200: { description: 'The new sandbox', schema: SandboxInfo },
        409: { description: 'Too many live sandboxes', schema: DetailBody },
        422: INVALID,
        503: DOCKER_DOWN,
      },
      handler: async ({ query, body }) => {
        const requested = requestedSpecId(query.sandbox_spec_id, body?.sandbox_spec_id);
        if (!requested) return sandboxes.create(specs.default());
        const spec = specs.find(requested.id);
        if (!spec) throw unknownSpec(requested.id, requested.location);
        return sandboxes.create(spec);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/sandboxes/:sandbox_id/pause',
      tag: 'sandboxes',
      summary: 'Pause a sandbox (its conversations stop first); idempotent',
      params: SandboxIdParams,
      responses: {
        200: { description: 'Paused', schema: SuccessBody },
        404: NOT_FOUND,
        409: { description: 'The sandbox is in ERROR or MISSING', schema: DetailBody },
        503: DOCKER_DOWN,
      },
      handler: async ({ params }) => {
        await sandboxes.pause(params.sandbox_id);
        return { success: true as const };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/sandboxes/:sandbox_id/resume',
      tag: 'sandboxes',
      summary: 'Resume a sandbox and wait until it is RUNNING; idempotent',
      params: SandboxIdParams,
      responses: {
        200: { description: 'Running', schema: SuccessBody },
        404: NOT_FOUND,
        409: {
          description: 'The sandbox is in ERROR or MISSING, or the live cap is reached',
          schema: DetailBody,
        },
        503: DOCKER_DOWN,
      },
      handler: async ({ params }) => {
        await sandboxes.resume(params.sandbox_id);
        return { success: true as const };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/sandboxes/:sandbox_id',
      tag: 'sandboxes',
      summary: 'Stop and remove a sandbox with its workspace volume',
      params: SandboxIdParams,
      responses: {
        200: { description: 'Deleted', schema: SuccessBody },
        404: NOT_FOUND,
        503: DOCKER_DOWN,
      },
      handler: async ({ params }) => {
        await sandboxes.delete(params.sandbox_id);
        return { success: true as const };
      },
    }),
  ];
}
