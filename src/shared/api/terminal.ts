import { z } from 'zod';
import { boundedInt } from './fields';

/**
 * The websocket subprotocol of a conversation's terminal. A browser cannot set headers on a websocket, so it
 * offers the key as a second subprotocol, `TERMINAL_KEY_PROTOCOL_PREFIX + key`; the service answers with
 * `TERMINAL_PROTOCOL` alone, never echoing the key.
 */
export const TERMINAL_PROTOCOL = 'dockhand.terminal.v1';
export const TERMINAL_KEY_PROTOCOL_PREFIX = 'dockhand.key.';

const TERMINAL_MAX_COLS = 1000;
const TERMINAL_MAX_ROWS = 500;

const cols = boundedInt(1, TERMINAL_MAX_COLS);
const rows = boundedInt(1, TERMINAL_MAX_ROWS);

/** `GET /api/conversations/{id}/terminal`: the TTY's first size (80×24 by default). */
export const TerminalQuery = z.object({
  cols: cols.default(80),
  rows: rows.default(24),
});

/**
 * A text frame a client sends. Binary frames are keystrokes (bytes for the shell); text frames are JSON
 * messages: `resize` changes the TTY's size.
 */
export const TerminalClientMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('resize'), cols, rows }),
]);
export type TerminalClientMessage = z.infer<typeof TerminalClientMessage>;

/**
 * A text frame the service sends. Binary frames are what the terminal printed; text frames are JSON:
 * `exit` when the shell ended (the socket then closes), `error` for a frame the service could not take.
 */
export const TerminalServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('exit'), exit_code: z.number().int() }),
  z.object({ type: z.literal('error'), detail: z.string() }),
]);
export type TerminalServerMessage = z.infer<typeof TerminalServerMessage>;
