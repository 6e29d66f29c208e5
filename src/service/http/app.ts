import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { sandboxKeyScope } from './api-keys';
import { isDiskFull } from '../storage/disk-full';
import { DiskFull, HttpError } from './errors';
import type { KeyGate } from './key-gate';
import { rendererFiles } from './renderer-files';
import { requestLog } from './request-log';
import { normaliseUrl } from './request-path';
import {
  mountRoutes,
  pathMatcher,
  ROUTER_OPTIONS,
  type RouteSpec,
  unmatchedRoute,
  MAX_JSON_BODY,
} from './routes';
import { cors, hostCheck, type OriginPolicy, rateLimit, requireKey } from './security';
import { ValidationFailed } from './validation';

export interface AppOptions {
  routes: RouteSpec[];
  keys: KeyGate;
  /** The service's own origins (by its port) and any explicitly allowed extra ones. */
  origins: OriginPolicy;
  rateLimitPerSecond: number;
  logger: Logger;
  /** The data folder, named when its disk is full (507). */
  dataDir: string;
  /** Folder of the built renderer, served at `/` when present. */
  rendererDir?: string;
}

/**
 * Runs `router` for every method but OPTIONS: no route answers OPTIONS (preflights are answered by
 * CORS), and a router would otherwise reply with a plain-text Allow list instead of the JSON 405.
 */
function exceptOptions(router: express.Router) {
  return (req: Request, res: Response, next: NextFunction) =>
    req.method === 'OPTIONS' ? next() : router(req, res, next);
}

function errorHandler(logger: Logger, dataDir: string) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (error instanceof ValidationFailed) {
      res.status(422).json({ detail: error.detail });
      return;
    }
    if (isDiskFull(error)) {
      logger.warn({ err: error }, 'data folder full');
      const full = new DiskFull(dataDir);
      res.status(full.status).json(full.body);
      return;
    }
    if (error instanceof HttpError) {
      res.set(error.headers).status(error.status).json(error.body);
      return;
    }
    const type = (error as { type?: string } | null)?.type;
    if (type === 'entity.too.large') {
      res.status(413).json({ detail: `Request body too large (max ${MAX_JSON_BODY} bytes)` });
      return;
    }
    if (error instanceof URIError) {
      // A path parameter with malformed percent-encoding cannot name anything that exists.
      res.status(404).json({ detail: 'Not Found' });
      return;
    }
    if (type === 'request.aborted' || type === 'request.size.invalid') {
      res.status(400).json({ detail: 'Request body was incomplete' });
      return;
    }
    const errorId = randomUUID();
    logger.error({ err: error, error_id: errorId }, 'unhandled error');
    res.status(500).json({ detail: 'Internal server error', error_id: errorId });
  };
}

/**
 * Builds the Express app. Deny by default: the path is normalised once; Host and Origin are checked; then
 * only the open list — the open routes (`/alive`, `/health`, the OpenAPI document), the built UI's files and
 * CORS preflights (answered by `cors`) — is served without a key, and every other request needs one before
 * any router sees it: the session key, or a sandbox key on the routes marked `sandboxKey` only. Routing is case-sensitive and strict, on that same normalised path.
 */
export function createApp(options: AppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('case sensitive routing', ROUTER_OPTIONS.caseSensitive);
  app.set('strict routing', ROUTER_OPTIONS.strict);
  app.set('query parser', 'simple');
  app.set('etag', false);
  app.use(normaliseUrl());
  app.use(requestLog(options.logger));
  app.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(hostCheck(options.origins));
  app.use(cors(options.origins));

  const open = options.routes.filter((r) => r.open);
  const keyed = options.routes.filter((r) => !r.open);
  const openRouter = express.Router(ROUTER_OPTIONS);
  mountRoutes(openRouter, open);
  app.use(exceptOptions(openRouter));
  app.use(rendererFiles(options.rendererDir));

  const isStream = pathMatcher(keyed.filter((r) => r.keyInQuery));
  const keyInQuery = (req: Request) => req.method === 'GET' && isStream(req.path);
  app.use(requireKey(options.keys, sandboxKeyScope(keyed), keyInQuery));
  app.use(rateLimit(options.rateLimitPerSecond, keyInQuery));

  const keyedRouter = express.Router(ROUTER_OPTIONS);
  mountRoutes(keyedRouter, keyed);
  app.use(exceptOptions(keyedRouter));
  app.use(unmatchedRoute(options.routes));
  app.use(errorHandler(options.logger, options.dataDir));
  return app;
}
