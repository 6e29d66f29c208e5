import path from 'node:path';
import pino, { type Logger } from 'pino';
import { openLogFile } from './log-file';

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

/** JSON logs to `<dataDir>/logs/dockhand.log` (lines dropped, never blocking, when the disk is full); warnings and errors to stderr as well. */
export function createLogger(dataDir: string, level: string): Logger {
  const streams = pino.multistream([
    { level: level as pino.Level, stream: openLogFile(path.join(dataDir, 'logs', 'dockhand.log')) },
    { level: 'warn', stream: process.stderr },
  ]);
  return pino({ level, redact: { paths: REDACT, censor: '<redacted>' } }, streams);
}
