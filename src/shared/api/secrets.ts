import { z } from 'zod';
import { valueError } from './fields';

export const RESERVED_SECRET_NAMES = [
  'GITHUB_TOKEN',
  'GITLAB_TOKEN',
  'BITBUCKET_TOKEN',
  'ENTERPRISE_SSO_TOKEN',
];
export const MAX_CUSTOM_SECRETS = 200;

const secretName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/)
  .superRefine((name, ctx) => {
    if (RESERVED_SECRET_NAMES.includes(name))
      valueError(ctx, `${name} is reserved for git provider tokens`, name);
  });

export const CreateSecretRequest = z.strictObject({
  name: secretName,
  value: z.string().min(1).max(65_536),
  description: z.string().max(500).nullable().optional(),
});

export const UpdateSecretRequest = z.strictObject({
  name: secretName,
  description: z.string().max(500).nullable().optional(),
});

export const CustomSecretInfo = z.object({ name: z.string(), description: z.string().nullable() });
export const CustomSecretList = z.object({ custom_secrets: z.array(CustomSecretInfo) });
export type CustomSecretInfo = z.infer<typeof CustomSecretInfo>;
