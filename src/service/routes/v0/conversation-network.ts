import { ConversationPath } from '../../../shared/api/conversations';
import { DetailBody, SuccessBody, ValidationErrorBody } from '../../../shared/api/errors';
import { NetworkAllowRequest, NetworkLog } from '../../../shared/api/network';
import type { ConversationEgress } from '../../conversations/conversation-egress';
import type { ConversationService } from '../../conversations/conversation-service';
import { defineRoute, type RouteSpec } from '../../http/routes';
import { ValidationFailed } from '../../http/validation';
import { parseEntry } from '../../sandbox/link/egress-policy';

/** A conversation's network: the log of what its gated sandbox tried, and allowing a refused destination. */
export function conversationNetworkRoutes(
  conversations: ConversationService,
  egress: ConversationEgress,
): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/network-log',
      tag: 'conversations',
      summary:
        "Dockhand extension: the connections the conversation's gated sandbox asked for through its proxy, " +
        'allowed and refused, oldest first (the last 1000)',
      params: ConversationPath,
      responses: {
        200: { description: 'The egress log', schema: NetworkLog },
        404: { description: 'Unknown conversation', schema: DetailBody },
      },
      handler: async ({ params }) => {
        conversations.require(params.id);
        return { entries: egress.log(params.id) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/conversations/:id/network-allow',
      tag: 'conversations',
      summary:
        'Dockhand extension: lets the conversation (scope `conversation`) or every conversation (scope ' +
        '`always`, added to the `egress_allow` setting) reach a destination its policy refused',
      params: ConversationPath,
      body: NetworkAllowRequest,
      responses: {
        200: { description: 'Allowed from the next connection on', schema: SuccessBody },
        404: { description: 'Unknown conversation', schema: DetailBody },
        422: { description: 'An entry that names no destination', schema: ValidationErrorBody },
      },
      handler: async ({ params, body }) => {
        conversations.require(params.id);
        if (!parseEntry(body.entry)) {
          throw new ValidationFailed([
            {
              type: 'value_error',
              loc: ['body', 'entry'],
              msg: 'Value error, expected host, host:port, *.domain, an address or a CIDR range',
              input: body.entry,
            },
          ]);
        }
        egress.allow(params.id, body.entry.trim(), body.scope);
        return { success: true as const };
      },
    }),
  ];
}
