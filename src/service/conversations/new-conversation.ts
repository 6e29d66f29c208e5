import type { ConversationCreateRequest } from '../../shared/api/conversations';
import type { ServiceContext } from '../context';
import { checkRepositoryAccess, type RepositoryAccess } from '../git/repository-access';
import { isLocalRepository } from '../../shared/api/local-repository';
import { resolveLocalRepository, type LocalRepository } from '../local-repository/resolve-repository';
import { DEFAULTS } from '../settings/settings-service';
import type { ConversationRecord, StartRequest } from './conversation-store';

/** What V1 adds to a conversation's creation. */
export interface CreateOptions {
  version: 'V0' | 'V1';
  title?: string | null;
  llmModel?: string | null;
  parentId?: string | null;
  sandboxId?: string | null;
  trigger?: string | null;
  prNumber?: number[];
}

/** The repository a creation names: a folder of this machine, or one of a git provider that lets the user in. */
export interface RequestedRepository {
  repository: string | null;
  local: LocalRepository | null;
  access: RepositoryAccess | null;
}

/** Checks the repository a creation names (its errors answer the request). */
export async function requestedRepository(
  ctx: ServiceContext,
  request: ConversationCreateRequest,
): Promise<RequestedRepository> {
  const repository =
    request.repository ?? request.suggested_task?.repo ?? request.create_microagent?.repo ?? null;
  const local =
    repository && isLocalRepository(repository)
      ? await resolveLocalRepository(repository, request.selected_branch ?? null)
      : null;
  const access =
    repository && !local
      ? await checkRepositoryAccess({
          repository,
          gitProvider:
            request.git_provider ??
            request.suggested_task?.git_provider ??
            request.create_microagent?.git_provider ??
            null,
          tokens: (provider) => ctx.providerTokens.token(provider),
          apiBase: ctx.providerApiBase,
        })
      : null;
  return { repository, local, access };
}

/** The record of a conversation that starts now. */
export function newConversationRecord(
  ctx: ServiceContext,
  id: string,
  request: ConversationCreateRequest,
  options: CreateOptions,
  start: StartRequest,
  { repository, local, access }: RequestedRepository,
): ConversationRecord {
  const now = new Date().toISOString();
  return {
    id,
    title: options.title || `Conversation ${id.slice(0, 5)}`,
    titleIsCustom: Boolean(options.title),
    status: 'STARTING',
    runtimeStatus: null,
    agentState: null,
    selectedRepository: local?.root ?? repository,
    selectedBranch: local ? local.branch : (request.selected_branch ?? null),
    gitProvider: access?.provider ?? null,
    trigger:
      options.trigger ??
      (request.suggested_task
        ? 'suggested_task'
        : request.create_microagent
          ? 'microagent_management'
          : 'gui'),
    prNumber: options.prNumber ?? [],
    version: options.version,
    sandboxId: options.sandboxId ?? null,
    parentConversationId: options.parentId ?? null,
    llmModel: options.llmModel ?? null,
    agent: request.agent ?? ctx.settings.stored()?.default_agent ?? DEFAULTS.default_agent,
    acpSession: null,
    request: start,
    createdAt: now,
    lastUpdatedAt: now,
  };
}
