import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { conversationScope } from './api-keys';
import { DiskFull, isDiskFull } from '../storage/disk-full';
import { HttpError } from './errors';
import { mountRoutes, type RouteSpec, unmatchedRoute, MAX_JSON_BODY } from './routes';
import { cors, hostCheck, type KeyChecker, rateLimit, requireKey } from './security';
import { ValidationFailed } from './validation';

export interface AppOptions {
  routes: RouteSpec[];
  keys: KeyChecker;
  port: () => number;
  rateLimitPerSecond: number;
  logger: Logger;
  /** The data folder, named when its disk is full (507). */
  dataDir: string;
  /** Folder of the built renderer, served at `/` when present. */
  rendererDir?: string;
  /** Paths under which every request needs a key (default: the service's own). */
  keyedPrefixes?: string[];
}

const KEYED_PREFIXES = ['/api', '/server_info', '/socket.io'];

/** Keyed paths need a key for every method; CORS preflights are answered before the check. */
function needsKey(req: Request, prefixes: string[] = KEYED_PREFIXES): boolean {
  return prefixes.some((p) => req.path === p || req.path.startsWith(`${p}/`));
}

/**
 * Runs `router` for every method but OPTIONS: no route answers OPTIONS (preflights are answered by
 * CORS), and a router would otherwise reply with a plain-text Allow list instead of the JSON 405.
 */
function exceptOptions(router: express.Router) {
  return (req: Request, res: Response, next: NextFunction) =>
    req.method === 'OPTIONS' ? next() : router(req, res, next);
}

/** The URL as logged: without the key a stream may carry in its query. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]session_api_key=)[^&]*/gi, '$1<redacted>');
}

function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          method: req.method,
          url: redactUrl(req.originalUrl),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
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

/** The renderer's files, and index.html for browser navigations outside the API. */
function renderer(dir: string) {
  const files = express.static(dir, { index: false });
  const index = path.join(dir, 'index.html');
  return [
    files,
    (req: Request, res: Response, next: NextFunction) => {
      const isPage = req.method === 'GET' && !needsKey(req) && req.accepts('html') === 'html';
      if (!isPage) return next();
      res.setHeader('Cache-Control', 'no-store');
      res.sendFile(index);
    },
  ];
}

/** Builds the Express app: security checks in the documented order, then the routes. */
export function createApp(options: AppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('etag', false);
  app.use(requestLog(options.logger));
  app.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(hostCheck(options.port));
  app.use(cors());

  const open = options.routes.filter((r) => r.open);
  const keyed = options.routes.filter((r) => !r.open);
  const openRouter = express.Router();
  mountRoutes(openRouter, open);
  app.use(exceptOptions(openRouter));

  const auth = requireKey(options.keys, conversationScope);
  const limit = rateLimit(options.rateLimitPerSecond);
  const isKeyed = (req: Request) => needsKey(req, options.keyedPrefixes);
  app.use((req, res, next) => (isKeyed(req) ? auth(req, res, next) : next()));
  app.use((req, res, next) => (isKeyed(req) ? limit(req, res, next) : next()));

  const keyedRouter = express.Router();
  mountRoutes(keyedRouter, keyed);
  app.use(exceptOptions(keyedRouter));

  if (options.rendererDir && existsSync(path.join(options.rendererDir, 'index.html'))) {
    app.use(renderer(options.rendererDir));
  }
  app.use(unmatchedRoute(options.routes));
  app.use(errorHandler(options.logger, options.dataDir));
  return app;
}
