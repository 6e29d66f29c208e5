import { DetailBody, MessageBody, ValidationErrorBody } from '../../../shared/api/errors';
import { LlmCheckRequest, LlmCheckResult } from '../../../shared/api/llm-check';
import { Settings, SettingsUpdate } from '../../../shared/api/settings';
import type { ServiceContext } from '../../context';
import { httpError } from '../../http/errors';
import { defineRoute, type RouteSpec } from '../../http/routes';
import { ValidationFailed } from '../../http/validation';
import { checkLlm } from '../../settings/llm-check';
import { describeModel, localModelServers } from '../../settings/model-probe';
import { ModelRoutingError } from '../../agent/llm/model-routing';
import { LocalModelServers, ModelProbe, ModelProbeRequest } from '../../../shared/api/model-probe';

export function settingsRoutes(ctx: ServiceContext): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/settings',
      tag: 'settings',
      summary: "Load the user's settings",
      responses: {
        200: { description: 'Settings, secrets replaced by *_set flags', schema: Settings },
        404: { description: 'Settings were never saved', schema: DetailBody },
      },
      handler: async () => {
        const settings = await ctx.settings.view();
        if (!settings) throw httpError(404, 'Settings not found');
        return settings;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/settings',
      tag: 'settings',
      summary: 'Store settings (whole-object replace; secrets kept when omitted)',
      body: SettingsUpdate,
      responses: {
        200: { description: 'Stored', schema: MessageBody },
        422: { description: 'Invalid settings', schema: ValidationErrorBody },
        503: { description: 'The secret store is unavailable', schema: DetailBody },
      },
      handler: async ({ body }) => {
        await ctx.settings.save(body);
        ctx.sandboxes.settingsChanged();
        return { message: 'Settings stored' };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/settings/llm-check',
      tag: 'settings',
      summary:
        'Dockhand extension: test a model, endpoint and key with one tiny request (the stored key if none is ' +
        'sent and the provider and base URL are the saved ones)',
      body: LlmCheckRequest,
      responses: {
        200: {
          description: 'Whether the model answered; if not, the classified cause and its fix',
          schema: LlmCheckResult,
        },
        422: { description: 'Invalid request', schema: ValidationErrorBody },
        503: { description: 'The secret store is unavailable', schema: DetailBody },
      },
      handler: async ({ body }) =>
        checkLlm(body, await ctx.settings.savedLlm(), ctx.llmFactory, ctx.settings.modelProbes),
    }),
    defineRoute({
      method: 'post',
      path: '/api/settings/llm-probe',
      tag: 'settings',
      summary:
        'Dockhand extension: what a model’s server says about it (context, tool use, images) and the context ' +
        'a conversation would run in; cached per model, read again with `refresh`',
      body: ModelProbeRequest,
      responses: {
        200: { description: 'The probed facts and what was decided', schema: ModelProbe },
        422: {
          description: 'Invalid request, or a model that cannot be routed',
          schema: ValidationErrorBody,
        },
      },
      handler: async ({ body }) => {
        try {
          return await describeModel(
            ctx.settings.modelProbes,
            body.llm_model,
            body.llm_base_url,
            body.refresh,
          );
        } catch (error) {
          if (error instanceof ModelRoutingError) {
            throw new ValidationFailed([
              { type: 'value_error', loc: ['body', 'llm_model'], msg: error.message, input: body.llm_model },
            ]);
          }
          throw error;
        }
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/settings/local-models',
      tag: 'settings',
      summary:
        'Dockhand extension: the Ollama and LM Studio servers answering on this machine, with their models ' +
        'and what was probed about each',
      responses: {
        200: { description: 'Servers found (none when none answers)', schema: LocalModelServers },
      },
      handler: () => localModelServers(ctx.settings.modelProbes),
    }),
    defineRoute({
      method: 'post',
      path: '/api/reset-settings',
      tag: 'settings',
      summary: 'Removed: answers 410',
      responses: { 410: { description: 'Gone', schema: DetailBody } },
      handler: () => {
        throw httpError(410, 'Reset settings functionality has been removed.');
      },
    }),
  ];
}
