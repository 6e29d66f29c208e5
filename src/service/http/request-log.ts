import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/** A request slower than this is logged at info even when it succeeds. */
export const SLOW_REQUEST_MS = 1000;

/** The URL as logged: without the key a stream may carry in its query. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]session_api_key=)[^&]*/gi, '$1<redacted>');
}

/**
 * The level of a finished request's log line: fast successes are routine (debug), so a busy UI does not
 * fill the log or spend its time writing it; failures and slow requests are what someone reads it for.
 */
export function requestLevel(status: number, ms: number): 'debug' | 'info' {
  return status >= 400 || ms >= SLOW_REQUEST_MS ? 'info' : 'debug';
}

/** Logs one line per finished request: method, redacted URL, status and duration. */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = requestLevel(res.statusCode, ms);
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
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
