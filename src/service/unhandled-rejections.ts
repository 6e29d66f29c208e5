import type { Logger } from 'pino';

let installed = false;

/**
 * Logs a promise rejection nobody handled instead of letting Node end the process (its default): one
 * forgotten `.catch` in a request or an agent step must not take every conversation down with it.
 * For the entry points (the CLI, the Electron main process); installed once per process.
 */
export function logUnhandledRejections(logger: Logger): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
}
