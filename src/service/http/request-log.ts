import { unescape } from 'node:querystring';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/** A request slower than this is logged at info even when it succeeds. */
export const SLOW_REQUEST_MS = 1000;

/** The key's query parameter name, reduced as `parameterName` reduces names. */
const KEY_PARAMETER = 'sessionapikey';

/**
 * A query parameter's name as Express's simple query parser (`querystring.parse`, what the key gate reads)
 * decodes it — `+` a space, percent-escapes in any case — then lower-cased and reduced to letters and
 * digits, so every spelling of the key's name compares equal: `session%5Fapi%5Fkey`, `Session+Api+Key`, ….
 */
function parameterName(raw: string): string {
  return unescape(raw.replace(/\+/g, ' '))
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

function redactParameter(parameter: string): string {
  const equals = parameter.indexOf('=');
  const name = equals === -1 ? parameter : parameter.slice(0, equals);
  const reduced = parameterName(name);
  if (!reduced.startsWith(KEY_PARAMETER)) return parameter;
  // A name that only begins as the key's (an escaped `=` in it) may carry the key itself.
  return reduced === KEY_PARAMETER ? `${name}=<redacted>` : '<redacted>';
}

/** The URL as logged: the value of every query parameter named as the key, however the name is spelled. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  return (
    url.slice(0, queryAt + 1) +
    url
      .slice(queryAt + 1)
      .split('&')
      .map(redactParameter)
      .join('&')
  );
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
