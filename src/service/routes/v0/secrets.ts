import { z } from 'zod';
import { DetailBody, MessageBody, ValidationErrorBody } from '../../../shared/api/errors';
import { AddGitProvidersRequest, AddGitProvidersResult } from '../../../shared/api/git-providers';
import { CreateSecretRequest, CustomSecretList, UpdateSecretRequest } from '../../../shared/api/secrets';
import type { ServiceContext } from '../../context';
import { defineRoute, type RouteSpec } from '../../http/routes';

const SecretId = z.object({ id: z.string() });

export function secretsRoutes(ctx: ServiceContext): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/add-git-providers',
      tag: 'secrets',
      summary:
        'Verify and store git-provider tokens (replaces the stored set); a provider that cannot be reached ' +
        'gets its token stored unverified, checked when it is next reachable',
      body: AddGitProvidersRequest,
      responses: {
        200: { description: 'Stored (some perhaps unverified)', schema: AddGitProvidersResult },
        401: { description: 'A token was rejected by its provider', schema: DetailBody },
        422: { description: 'Invalid request', schema: ValidationErrorBody },
        502: { description: 'A provider answered with an error', schema: DetailBody },
        503: { description: 'The secret store is unavailable', schema: DetailBody },
      },
      handler: async ({ body }) => {
        const unverified = await ctx.providerTokens.replace(body.provider_tokens);
        if (body.mcp_config) await ctx.settings.saveMcpConfig(body.mcp_config);
        return {
          message: unverified.length
            ? `Git providers stored; not verified yet (could not be reached): ${unverified.join(', ')}`
            : 'Git providers stored',
          unverified_providers: unverified,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/unset-provider-tokens',
      tag: 'secrets',
      summary: 'Remove every git-provider token',
      responses: { 200: { description: 'Removed', schema: MessageBody } },
      handler: async () => {
        await ctx.providerTokens.clear();
        return { message: 'Unset Git provider tokens' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/secrets',
      tag: 'secrets',
      summary: 'List custom secrets (names and descriptions, never values)',
      responses: { 200: { description: 'Secrets', schema: CustomSecretList } },
      handler: () => ({ custom_secrets: ctx.customSecrets.list() }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/secrets',
      tag: 'secrets',
      summary: 'Create a custom secret',
      body: CreateSecretRequest,
      status: 201,
      responses: {
        201: { description: 'Created', schema: MessageBody },
        409: { description: 'A secret with this name exists', schema: DetailBody },
        422: { description: 'Invalid request', schema: ValidationErrorBody },
      },
      handler: async ({ body }) => {
        await ctx.customSecrets.create(body.name, body.value, body.description ?? null);
        return { message: 'Secret created successfully' };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/api/secrets/:id',
      tag: 'secrets',
      summary: 'Rename or re-describe a custom secret (its value is kept)',
      params: SecretId,
      body: UpdateSecretRequest,
      responses: {
        200: { description: 'Updated', schema: MessageBody },
        404: { description: 'Unknown secret', schema: DetailBody },
        409: { description: 'The new name is taken', schema: DetailBody },
      },
      handler: async ({ params, body }) => {
        await ctx.customSecrets.update(params.id, body.name, body.description ?? null);
        return { message: 'Secret updated successfully' };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/secrets/:id',
      tag: 'secrets',
      summary: 'Delete a custom secret',
      params: SecretId,
      responses: {
        200: { description: 'Deleted', schema: MessageBody },
        404: { description: 'Unknown secret', schema: DetailBody },
      },
      handler: async ({ params }) => {
        await ctx.customSecrets.delete(params.id);
        return { message: 'Secret deleted successfully' };
      },
    }),
  ];
}
