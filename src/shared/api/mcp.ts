import { z } from 'zod';
import { boundedInt, valueError } from './fields';

/** What GET responses show in place of a stored MCP `api_key`. */
export const MASKED_API_KEY = '**********';

const SERVER_URL_SCHEMES = ['http:', 'https:', 'ws:', 'wss:'];

const serverUrl = z.string().superRefine((url, ctx) => {
  let scheme: string | null;
  try {
    scheme = new URL(url).protocol;
  } catch {
    scheme = null;
  }
  if (!scheme || !SERVER_URL_SCHEMES.includes(scheme)) {
    valueError(ctx, 'URL must include a scheme (http:// or https://)', url);
  }
});

const SseServerObject = z.strictObject({
  url: serverUrl,
  api_key: z.string().nullable().optional(),
});

/** An SSE server: an object, or a bare URL string. */
export const MCPSSEServer = z.union([serverUrl.transform((url) => ({ url })), SseServerObject]);

export const MCPSHTTPServer = z.strictObject({
  url: serverUrl,
  api_key: z.string().nullable().optional(),
  timeout: boundedInt(1, 3600).default(60),
});

export const MCPStdioServer = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]+$/),
  command: z.string().regex(/^\S+$/),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
});

export const MCPConfig = z.strictObject({
  sse_servers: z.array(MCPSSEServer).default([]),
  stdio_servers: z.array(MCPStdioServer).default([]),
  shttp_servers: z.array(MCPSHTTPServer).default([]),
});
export type MCPConfig = z.infer<typeof MCPConfig>;
