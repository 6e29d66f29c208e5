import { z } from 'zod';
import { repeatedIds } from './fields';
import { PageQuery } from './sandboxes';

/**
 * A pull of the spec's image that is under way, a build of Dockhand's own image standing in for it (when it
 * cannot be pulled), or the last attempt that failed.
 */
export const ImageProgress = z.object({
  state: z.enum(['pulling', 'building', 'failed']),
  /** 0-100 while the layer sizes are known, else null. */
  percent: z.number().nullable(),
  message: z.string(),
});
export type ImageProgress = z.infer<typeof ImageProgress>;

export const SandboxSpecInfo = z.object({
  /** The image reference. */
  id: z.string(),
  command: z.array(z.string()),
  created_at: z.string(),
  initial_env: z.record(z.string(), z.string()),
  working_dir: z.string(),
  title: z.string(),
  description: z.string(),
  /** Whether the Docker engine has the image (false when Docker is not available). */
  image_present: z.boolean(),
  image_progress: ImageProgress.nullable(),
});
export type SandboxSpecInfo = z.infer<typeof SandboxSpecInfo>;

export const SandboxSpecPage = z.object({
  items: z.array(SandboxSpecInfo),
  next_page_id: z.string().nullable(),
});

export const SandboxSpecSearchQuery = PageQuery;
export const SandboxSpecBatchQuery = z.object({ id: repeatedIds() });

/** Specs aligned with the requested ids, null for unknown ones. */
export const SandboxSpecBatch = z.array(SandboxSpecInfo.nullable());
