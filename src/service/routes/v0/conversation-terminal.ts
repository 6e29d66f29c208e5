import { ConversationPath } from '../../../shared/api/conversations';
import { DetailBody, ValidationErrorBody } from '../../../shared/api/errors';
import { TERMINAL_KEY_PROTOCOL_PREFIX, TERMINAL_PROTOCOL, TerminalQuery } from '../../../shared/api/terminal';
import type { ConversationTerminals } from '../../conversations/conversation-terminals';
import { httpError } from '../../http/errors';
import { defineRoute, type RouteSpec } from '../../http/routes';
import type { Upgrades } from '../../http/upgrades';
import type { TerminalSockets } from './terminal-sockets';

/**
 * `GET /api/conversations/{id}/terminal`: a person's shell in the conversation's sandbox, over a websocket.
 * Session key only (never a sandbox key: the route is not marked `sandboxKey`), checked by the app with Host
 * and Origin before the handshake is answered; no shell starts for a refused one.
 */
export function conversationTerminalRoutes(
  terminals: ConversationTerminals,
  sockets: TerminalSockets,
  upgrades: Upgrades,
): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/terminal',
      tag: 'workspace',
      summary:
        "An interactive shell (bash on a TTY) in the conversation's sandbox, as the sandbox user in the " +
        'working directory, over a websocket. Send the session key in `X-Session-API-Key`, or from a browser ' +
        `as the subprotocol \`${TERMINAL_KEY_PROTOCOL_PREFIX}<key>\` beside \`${TERMINAL_PROTOCOL}\` (the ` +
        'answer names only the latter). Binary frames carry the terminal bytes both ways; text frames are JSON: ' +
        '`{"type":"resize","cols":N,"rows":N}` from the client, `{"type":"exit","exit_code":N}` and ' +
        '`{"type":"error","detail":"..."}` from the service. The shell is hung up when the socket closes, and ' +
        'the socket closes (1001) when the sandbox stops running. At most 4 per conversation.',
      params: ConversationPath,
      query: TerminalQuery,
      responses: {
        101: { description: 'Switching to the websocket protocol; the shell starts' },
        404: { description: 'Unknown conversation', schema: DetailBody },
        409: {
          description: 'The conversation or its sandbox is not running, or it has 4 terminals open',
          schema: DetailBody,
        },
        422: { description: 'A size out of bounds (cols 1-1000, rows 1-500)', schema: ValidationErrorBody },
        426: { description: 'Not a websocket handshake', schema: DetailBody },
      },
      handler: ({ params, query, req }) => {
        terminals.check(params.id);
        const upgrade = req.headers.upgrade?.toLowerCase() === 'websocket' ? upgrades.take(req) : null;
        if (!upgrade) throw httpError(426, 'Upgrade Required');
        sockets.accept(req, upgrade, params.id, query);
        return undefined;
      },
    }),
  ];
}
