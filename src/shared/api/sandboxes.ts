import { z } from 'zod';
import { pageLimit, repeatedIds } from './fields';
import { SANDBOX_PROVIDERS } from './settings';

export const SANDBOX_STATUSES = ['STARTING', 'RUNNING', 'PAUSED', 'ERROR', 'MISSING'] as const;
export const SandboxStatus = z.enum(SANDBOX_STATUSES);
export type SandboxStatus = z.infer<typeof SandboxStatus>;

/** `sbx-` and 22 base62 characters. */
export const SANDBOX_ID_PATTERN = /^sbx-[0-9A-Za-z]{22}$/;

/** An app port of the sandbox as reachable from this machine. */
export const ExposedUrl = z.object({
  /** Extension: `PREVIEW` is a port something in the sandbox listens on, forwarded to this machine. */
  name: z.enum(['WORKER_1', 'WORKER_2', 'AGENT_SERVER', 'PREVIEW']),
  url: z.string(),
  port: z.number().int(),
  /** Extension: for `PREVIEW`, the port inside the sandbox. */
  sandbox_port: z.number().int().optional(),
});
export type ExposedUrl = z.infer<typeof ExposedUrl>;

export const SandboxInfo = z.object({
  id: z.string(),
  created_by_user_id: z.null(),
  sandbox_spec_id: z.string(),
  status: SandboxStatus,
  /** The sandbox key, only while RUNNING. */
  session_api_key: z.string().nullable(),
  /** Only while RUNNING. */
  exposed_urls: z.array(ExposedUrl).nullable(),
  created_at: z.string(),
  /** Extension: what runs the sandbox. */
  provider: z.enum(SANDBOX_PROVIDERS),
  /** Extension: false when commands run unsandboxed on the host (the process provider). */
  isolated: z.boolean(),
  /** Extension: why the sandbox is in ERROR or MISSING (null otherwise). */
  error: z.string().nullable(),
});
export type SandboxInfo = z.infer<typeof SandboxInfo>;

export const SandboxPage = z.object({ items: z.array(SandboxInfo), next_page_id: z.string().nullable() });

/** Query of a V1 search: an opaque cursor and a page size. */
export const PageQuery = z.object({
  page_id: z.string().nullable().optional(),
  limit: pageLimit(100),
});

export const SandboxSearchQuery = PageQuery.extend({
  status__eq: SandboxStatus.optional(),
});

export const SandboxBatchQuery = z.object({ id: repeatedIds() });

export const SandboxIdParams = z.object({ sandbox_id: z.string() });

export const CreateSandboxQuery = z.object({ sandbox_spec_id: z.string().optional() });
export const CreateSandboxBody = z.strictObject({ sandbox_spec_id: z.string().nullable().optional() });

/** Sandboxes aligned with the requested ids, null for unknown ones. */
export const SandboxBatch = z.array(SandboxInfo.nullable());
