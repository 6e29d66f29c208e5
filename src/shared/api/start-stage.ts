import { z } from 'zod';

/**
 * The stages a conversation's start walks through, in order. The V0 runtime status ids and the V1 start-task
 * stages are derived from them (`src/service/conversations/start-status.ts`).
 */
export const START_STAGES = [
  'starting_sandbox',
  'sandbox_running',
  'setting_up_workspace',
  'setting_up_git_hooks',
  'loading_microagents',
  'connecting_mcp',
  'ready',
] as const;
export const StartStageName = z.enum(START_STAGES);
export type StartStageName = z.infer<typeof StartStageName>;

/** Why a start failed: `git_auth` when the git provider refused the token, else `error`. */
export const StartFailureKind = z.enum(['git_auth', 'error']);
export type StartFailureKind = z.infer<typeof StartFailureKind>;

/** A failed start: the stage it failed in, what the user is told, and the kind of failure. */
export const StartFailureInfo = z.strictObject({
  stage: StartStageName,
  message: z.string(),
  kind: StartFailureKind,
});
export type StartFailureInfo = z.infer<typeof StartFailureInfo>;

/** Where a conversation's start is: one of the stages, or failed. */
export const StartStage = z.discriminatedUnion('stage', [
  z.strictObject({ stage: StartStageName }),
  z.strictObject({ stage: z.literal('failed'), failure: StartFailureInfo }),
]);
export type StartStage = z.infer<typeof StartStage>;
