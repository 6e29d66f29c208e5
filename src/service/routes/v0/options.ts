import { NameList } from '../../../shared/api/common';
import { ConfigOptions } from '../../../shared/api/server';
import { AGENTS, SECURITY_ANALYZERS } from '../../../shared/api/settings';
import { listModels } from '../../agent/llm/model-catalog';
import type { SettingsService } from '../../settings/settings-service';
import { defineRoute, type RouteSpec } from '../../http/routes';

export function optionsRoutes(settings: Pick<SettingsService, 'stored'>, version: string): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/options/models',
      tag: 'options',
      summary: 'Models: curated ones plus those local and configured servers report',
      responses: { 200: { description: 'Sorted unique model names', schema: NameList } },
      handler: () => listModels(settings.stored() ?? {}),
    }),
    defineRoute({
      method: 'get',
      path: '/api/options/agents',
      tag: 'options',
      summary: 'Agent classes',
      responses: { 200: { description: 'Agent names', schema: NameList } },
      handler: () => [...AGENTS],
    }),
    defineRoute({
      method: 'get',
      path: '/api/options/security-analyzers',
      tag: 'options',
      summary: 'Security analyzers',
      responses: { 200: { description: 'Analyzer names', schema: NameList } },
      handler: () => [...SECURITY_ANALYZERS],
    }),
    defineRoute({
      method: 'get',
      path: '/api/options/config',
      tag: 'options',
      summary: 'Frontend configuration',
      responses: { 200: { description: 'Configuration', schema: ConfigOptions } },
      handler: () => ({
        APP_MODE: 'oss' as const,
        GITHUB_CLIENT_ID: '',
        POSTHOG_CLIENT_KEY: '',
        FEATURE_FLAGS: { ENABLE_BILLING: false, HIDE_LLM_SETTINGS: false },
        DOCKHAND_VERSION: version,
      }),
    }),
  ];
}
