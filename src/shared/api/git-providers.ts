import { z } from 'zod';
import { GIT_PROVIDERS, type GitProvider } from './settings';
import { MCPConfig } from './mcp';

const HOST = /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:\d{1,5})?$/;

export const ProviderToken = z.strictObject({
  token: z.string().nullable().optional(),
  /** `""` (what the OpenHands web UI sends for a blank host field), null or absent: the default host. */
  host: z.preprocess((host) => (host === '' ? null : host), z.string().regex(HOST).nullable().optional()),
  user_id: z.string().nullable().optional(),
});
export type ProviderToken = z.infer<typeof ProviderToken>;

/** POST /api/add-git-providers. */
export const AddGitProvidersRequest = z.strictObject({
  provider_tokens: z
    .record(z.string(), ProviderToken)
    .superRefine((tokens, ctx) => {
      const expected = "'github', 'gitlab', 'bitbucket' or 'enterprise_sso'";
      for (const key of Object.keys(tokens)) {
        if ((GIT_PROVIDERS as readonly string[]).includes(key)) continue;
        ctx.addIssue({
          code: 'custom',
          path: [key, '[key]'],
          input: key,
          params: { type: 'enum', msg: `Input should be ${expected}`, ctx: { expected } },
        });
      }
    })
    .transform((tokens) => tokens as Partial<Record<GitProvider, ProviderToken>>)
    .default({}),
  mcp_config: MCPConfig.nullable().optional(),
});
export type AddGitProvidersRequest = z.infer<typeof AddGitProvidersRequest>;

/** The answer of POST /api/add-git-providers: stored; `unverified_providers` could not be reached to check. */
export const AddGitProvidersResult = z.object({
  message: z.string(),
  /** Dockhand extension: providers whose token was stored unverified (checked when next reachable). */
  unverified_providers: z.array(z.enum(GIT_PROVIDERS)),
});
export type AddGitProvidersResult = z.infer<typeof AddGitProvidersResult>;
