import { ConversationPath } from '../../../shared/api/conversations';
import { DetailBody, ValidationErrorBody } from '../../../shared/api/errors';
import {
  LocalRepositoryExportConflict,
  LocalRepositoryExportRequest,
  LocalRepositoryExportResult,
  LocalRepositoryInfo,
} from '../../../shared/api/local-repository';
import type { ConversationService } from '../../conversations/conversation-service';
import { defineRoute, type RouteSpec } from '../../http/routes';
import type { LocalRepositoryExport } from '../../local-repository/local-repository-export';

/** The routes of a conversation on a repository of this machine: what it started from, and the export. */
export function localRepositoryRoutes(
  conversations: ConversationService,
  exporter: LocalRepositoryExport,
): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/local-repository',
      tag: 'workspace',
      summary: 'The repository of this machine a conversation works on a copy of, and its starting snapshot',
      params: ConversationPath,
      responses: {
        200: { description: 'The repository and the review baseline', schema: LocalRepositoryInfo },
        404: {
          description: 'Unknown conversation, or not on a repository of this machine',
          schema: DetailBody,
        },
      },
      handler: async ({ params }) => {
        conversations.require(params.id);
        return exporter.info(params.id);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/conversations/:id/local-repository/export',
      tag: 'workspace',
      summary:
        "Brings the agent's work back: as a new branch (its commits, uncommitted work as one commit with " +
        '`message`), or applied to the working tree when every changed file is still as it was at the start',
      params: ConversationPath,
      body: LocalRepositoryExportRequest,
      responses: {
        200: {
          description: 'The branch and its commit, or the files changed',
          schema: LocalRepositoryExportResult,
        },
        404: {
          description: 'Unknown conversation, or not on a repository of this machine',
          schema: DetailBody,
        },
        409: {
          description:
            'Not running; nothing to bring back; the branch exists; another export to the repository is running; ' +
            'the agent’s work holds objects or paths git refuses (a `.git` in any spelling, …) or is too large; ' +
            'or (apply) files that changed on both sides, named in `conflicts`, a file over 1 GiB, or a write ' +
            'that failed (nothing was changed)',
          schema: LocalRepositoryExportConflict,
        },
        422: { description: 'Invalid mode or branch name', schema: ValidationErrorBody },
        502: {
          description: 'The sandbox failed to collect the agent’s work or handed over no valid bundle',
          schema: DetailBody,
        },
      },
      handler: async ({ params, body }) => {
        conversations.require(params.id);
        return exporter.export(params.id, body);
      },
    }),
  ];
}
