import express, { type Request, type Response, type Router } from 'express';
import { match } from 'path-to-regexp';
import type { z } from 'zod';
import { httpError } from './errors';
import { invalidJsonOffset } from './json-error-offset';
import { excessNestingOffset, MAX_JSON_NESTING } from './json-nesting';
import { bodyMissing, jsonInvalid, validate, ValidationFailed } from './validation';

export const MAX_JSON_BODY = 10 * 1024 * 1024;

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteResponse {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}

export interface HandlerInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  req: Request;
  res: Response;
}

/**
 * One API route: its schemas (which validate requests and generate the OpenAPI document) and its handler.
 * The handler returns the JSON body of a success, or `undefined` when it wrote the response itself.
 */
export interface RouteSpec<B = unknown, Q = unknown, P = unknown> {
  method: Method;
  /** Express-style path, e.g. `/api/secrets/:id`. */
  path: string;
  summary: string;
  tag: string;
  body?: z.ZodType<B, unknown>;
  /** Whether an absent body is a 422 `missing` (default: required when `body` is set). */
  bodyOptional?: boolean;
  /** A multipart form the handler reads itself from `req` (documented with this schema); the body is left unread. */
  multipartBody?: z.ZodType;
  query?: z.ZodType<Q, unknown>;
  params?: z.ZodType<P, unknown>;
  /** Status of a success (default 200). */
  status?: number;
  responses: Record<number, RouteResponse>;
  /** Open routes need no session key. */
  open?: boolean;
  /** The key may come as the `session_api_key` query parameter (event streams); elsewhere only the header. */
  keyInQuery?: boolean;
  /**
   * A running sandbox's key opens this route too, for the conversations of that sandbox (the `:id` path
   * parameter); unmarked routes take the session key only. Never on a route that changes anything outside
   * the sandbox and the conversation's own events: the user's repositories, settings, secrets, other data.
   */
  sandboxKey?: boolean;
  handler: (input: HandlerInput<B, Q, P>) => unknown;
}

/** Keeps the types of a spec's schemas flowing into its handler. */
export function defineRoute<B, Q, P>(spec: RouteSpec<B, Q, P>): RouteSpec {
  return spec as unknown as RouteSpec;
}

const rawBody = express.raw({ type: () => true, limit: MAX_JSON_BODY });

function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * The character offset where `text` stops being valid JSON: V8 names it in most messages, and for the others
 * (an unexpected token) one pass of the scanner finds it, never a re-parse per candidate prefix.
 */
function jsonErrorOffset(message: string, text: string): number {
  const position = /position (\d+)/.exec(message);
  return position ? Number(position[1]) : (invalidJsonOffset(text) ?? text.length);
}

/** Reads a JSON body: absent when empty, 415 for other content types, 422 `json_invalid` for bad JSON. */
function parseJsonBody(req: Request): unknown {
  const buffer = req.body as unknown;
  if (!Buffer.isBuffer(buffer) || buffer.length === 0) return undefined;
  if (!isJsonContentType(req.headers['content-type'])) {
    throw httpError(415, 'Unsupported Media Type: the body must be application/json');
  }
  const text = buffer.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ValidationFailed([jsonInvalid(jsonErrorOffset(message, text), message)]);
  }
  const tooDeep = excessNestingOffset(text);
  if (tooDeep !== null) {
    throw new ValidationFailed([jsonInvalid(tooDeep, `Nesting deeper than ${MAX_JSON_NESTING} levels`)]);
  }
  return parsed;
}

function readBody(spec: RouteSpec, req: Request): unknown {
  const body = parseJsonBody(req);
  if (!spec.body) return undefined;
  if (body === undefined) {
    if (spec.bodyOptional) return undefined;
    throw new ValidationFailed([bodyMissing()]);
  }
  return validate(spec.body, body, 'body');
}

/** Whether a route reads its body as JSON (with the 413, 415 and 422 answers that brings). */
export function readsJsonBody(spec: RouteSpec): boolean {
  return !spec.multipartBody && (spec.body !== undefined || spec.method !== 'get');
}

/** Mounts the routes on `router`, each validating its input before its handler runs. */
export function mountRoutes(router: Router, specs: RouteSpec[]): void {
  for (const spec of specs) {
    const handlers = [
      ...(readsJsonBody(spec) ? [rawBody] : []),
      async (req: Request, res: Response) => {
        const body = readBody(spec, req);
        const query = spec.query ? validate(spec.query, req.query, 'query') : undefined;
        const params = spec.params ? validate(spec.params, req.params, 'path') : undefined;
        const result = await spec.handler({ body, query, params, req, res });
        if (result !== undefined && !res.headersSent) res.status(spec.status ?? 200).json(result);
      },
    ];
    router[spec.method](spec.path, ...handlers);
  }
}

/** Routers match as these options say: case-sensitive and strict (no optional trailing slash). */
export const ROUTER_OPTIONS = { caseSensitive: true, strict: true } as const;

/** Whether a (normalised) path names one of `specs`, matched exactly as the router matches it. */
export function pathMatcher(specs: RouteSpec[]): (path: string) => boolean {
  const matchers = specs.map((spec) => match(spec.path, { sensitive: true, trailing: false, decode: false }));
  return (path) => matchers.some((matches) => matches(path));
}

/** 405 for a known path with another method, else 404. */
export function unmatchedRoute(specs: RouteSpec[]) {
  const known = pathMatcher(specs);
  return (req: Request, _res: Response) => {
    throw known(req.path) ? httpError(405, 'Method Not Allowed') : httpError(404, 'Not Found');
  };
}
