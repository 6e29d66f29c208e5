import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';

/** Header and query names that carry keys; pino replaces their values wherever they are logged. */
const REDACT = [
  'req.headers["x-session-api-key"]',
  'headers["x-session-api-key"]',
  'session_api_key',
  '*.session_api_key',
  'api_key',
  '*.api_key',
  'token',
  '*.token',
];

/** JSON logs to `<dataDir>/logs/dockhand.log`; warnings and errors to stderr as well. */
export function createLogger(dataDir: string, level = process.env.DOCKHAND_LOG_LEVEL ?? 'info'): Logger {
  const dir = path.join(dataDir, 'logs');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const streams = pino.multistream([
    {
      level: level as pino.Level,
      stream: pino.destination({ dest: path.join(dir, 'dockhand.log'), mkdir: true, sync: false }),
    },
    { level: 'warn', stream: process.stderr },
  ]);
  return pino({ level, redact: { paths: REDACT, censor: '<redacted>' } }, streams);
}
