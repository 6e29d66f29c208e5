import { ValidationErrorBody } from '../../../shared/api/errors';
import {
  SandboxSpecBatch,
  SandboxSpecBatchQuery,
  SandboxSpecPage,
  SandboxSpecSearchQuery,
} from '../../../shared/api/sandbox-specs';
import type { SandboxSpecs } from '../../sandbox/sandbox-specs';
import { defineRoute, type RouteSpec } from '../../http/routes';

/** V1 sandbox specs (api-contract §12). */
export function sandboxSpecsRoutes(specs: SandboxSpecs): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/sandbox-specs/search',
      tag: 'sandbox-specs',
      summary: 'List sandbox specs, the default first, with image presence and pull progress',
      query: SandboxSpecSearchQuery,
      responses: {
        200: { description: 'A page of specs', schema: SandboxSpecPage },
        422: { description: 'Invalid request', schema: ValidationErrorBody },
      },
      handler: ({ query }) => specs.page(query.page_id, query.limit),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/sandbox-specs',
      tag: 'sandbox-specs',
      summary: 'Get sandbox specs by id (null for each unknown id)',
      query: SandboxSpecBatchQuery,
      responses: {
        200: { description: 'Specs aligned with the ids', schema: SandboxSpecBatch },
        422: { description: 'Invalid request', schema: ValidationErrorBody },
      },
      handler: ({ query }) =>
        Promise.all(
          query.id.map((id) => {
            const spec = specs.find(id);
            return spec ? specs.info(spec) : null;
          }),
        ),
    }),
  ];
}
