import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type {
  AppConversation,
  AppConversationSearchQuery,
  AppConversationStartRequest,
  AppConversationStartTask,
  StartTaskSearchQuery,
  StartTaskStatus,
} from '../../shared/api/app-conversations';
import { START_TASK_STATUSES } from '../../shared/api/app-conversations';
import type { ServiceContext } from '../context';
import { HttpError, httpError } from '../http/errors';
import { decodeCursor, encodeCursor } from '../http/page-cursor';
import { agentServerUrl, conversationUrl } from './agent-server-url';
import type { StartStage } from '../../shared/api/start-stage';
import { ConversationMetricsReader, conversationModel } from './conversation-metrics';
import type { ConversationService } from './conversation-service';
import type { ConversationRecord, ConversationStore } from './conversation-store';
import { startTaskStatusOf } from './start-status';
import type { StartTaskStore } from './start-task-store';

const TASK_RETENTION_MS = 30 * 24 * 3600 * 1000;
const FINAL: StartTaskStatus[] = ['READY', 'ERROR'];

export const EXECUTION_STATUS: Record<string, AppConversation['execution_status']> = {
  loading: 'idle',
  awaiting_user_input: 'idle',
  running: 'running',
  user_confirmed: 'running',
  user_rejected: 'running',
  rate_limited: 'running',
  paused: 'paused',
  awaiting_user_confirmation: 'waiting_for_confirmation',
  finished: 'finished',
  rejected: 'finished',
  error: 'error',
  stopped: null,
};

const CONVERSATION_ORDER: Record<AppConversationSearchQuery['sort_order'], string> = {
  CREATED_AT: 'created_at ASC, id ASC',
  CREATED_AT_DESC: 'created_at DESC, id ASC',
  UPDATED_AT: 'last_updated_at ASC, id ASC',
  UPDATED_AT_DESC: 'last_updated_at DESC, id ASC',
  TITLE: 'title ASC, id ASC',
  TITLE_DESC: 'title DESC, id ASC',
};

const TASK_ORDER: Record<StartTaskSearchQuery['sort_order'], string> = {
  CREATED_AT: 'created_at ASC, id ASC',
  CREATED_AT_DESC: 'created_at DESC, id ASC',
  UPDATED_AT: 'updated_at ASC, id ASC',
  UPDATED_AT_DESC: 'updated_at DESC, id ASC',
};

/** An RFC 3339 datetime (naive = UTC) as the stored form: ISO-8601 UTC with milliseconds. */
export function utcIso(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(value);
  return new Date(hasOffset ? value : `${value}Z`).toISOString();
}

function offsetOf(pageId: string | undefined): number {
  return pageId ? Number(decodeCursor(pageId, 1)[0]) : 0;
}

function page<T>(items: T[], offset: number, limit: number) {
  return {
    items: items.slice(0, limit),
    next_page_id: items.length > limit ? encodeCursor([String(offset + limit)]) : null,
  };
}

/**
 * The V1 view of conversations: start tasks that walk the documented stages while the conversation starts,
 * and AppConversation records over the same conversations V0 uses.
 */
export class AppConversations {
  private readonly changes = new EventEmitter();
  private readonly metrics: ConversationMetricsReader;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly conversations: ConversationService,
    private readonly store: ConversationStore,
    private readonly tasks: StartTaskStore,
  ) {
    this.changes.setMaxListeners(0);
    this.metrics = new ConversationMetricsReader(ctx, conversations);
    conversations.onDeleted((id) => tasks.deleteForConversation(id));
    tasks.deleteOlderThan(new Date(Date.now() - TASK_RETENTION_MS).toISOString());
  }

  /** Checks what can be checked at once (422 by the route, 409, 404), then starts a task in the background. */
  start(request: AppConversationStartRequest): AppConversationStartTask {
    if (request.conversation_id && this.store.get(request.conversation_id)) {
      throw httpError(409, `Conversation ${request.conversation_id} already exists`);
    }
    if (request.sandbox_id && !this.ctx.sandboxes.find(request.sandbox_id)) {
      throw httpError(404, `Sandbox ${request.sandbox_id} not found`);
    }
    if (request.parent_conversation_id) this.conversations.require(request.parent_conversation_id);
    const now = new Date().toISOString();
    const task: AppConversationStartTask = {
      id: randomUUID().replaceAll('-', ''),
      created_by_user_id: null,
      status: 'WORKING',
      detail: null,
      app_conversation_id: null,
      sandbox_id: null,
      agent_server_url: null,
      request: request as unknown as Record<string, unknown>,
      created_at: now,
      updated_at: now,
    };
    this.tasks.insert(task);
    void this.run(task.id, request);
    return task;
  }

  /** Calls `listener` with every new snapshot of a task until it is READY or ERROR. */
  watch(taskId: string, listener: (task: AppConversationStartTask) => void): () => void {
    this.changes.on(taskId, listener);
    return () => this.changes.off(taskId, listener);
  }

  task(id: string): AppConversationStartTask | null {
    return this.tasks.get(id);
  }

  searchTasks(query: StartTaskSearchQuery) {
    const offset = offsetOf(query.page_id);
    const filters = {
      conversationId: query.conversation_id__eq,
      createdAtGte: utcIso(query.created_at__gte),
    };
    return page(
      this.tasks.search(filters, TASK_ORDER[query.sort_order], offset, query.limit + 1),
      offset,
      query.limit,
    );
  }

  countTasks(query: Pick<StartTaskSearchQuery, 'conversation_id__eq' | 'created_at__gte'>): number {
    return this.tasks.count({
      conversationId: query.conversation_id__eq,
      createdAtGte: utcIso(query.created_at__gte),
    });
  }

  find(id: string): AppConversation | null {
    const record = this.store.get(id);
    return record ? this.view(record, this.metrics.of([record])[0] ?? null) : null;
  }

  search(query: AppConversationSearchQuery) {
    const offset = offsetOf(query.page_id);
    const rows = this.store.search(
      this.filters(query),
      CONVERSATION_ORDER[query.sort_order],
      offset,
      query.limit + 1,
    );
    const metrics = this.metrics.of(rows);
    return page(
      rows.map((r, i) => this.view(r, metrics[i] ?? null)),
      offset,
      query.limit,
    );
  }

  count(query: Omit<AppConversationSearchQuery, 'sort_order' | 'page_id' | 'limit'>): number {
    return this.store.count(this.filters(query));
  }

  private filters(query: Omit<AppConversationSearchQuery, 'sort_order' | 'page_id' | 'limit'>) {
    return {
      titleContains: query.title__contains,
      createdAtGte: utcIso(query.created_at__gte),
      createdAtLt: utcIso(query.created_at__lt),
      updatedAtGte: utcIso(query.updated_at__gte),
      updatedAtLt: utcIso(query.updated_at__lt),
      sandboxId: query.sandbox_id__eq,
      includeSubConversations: query.include_sub_conversations,
    };
  }

  private view(record: ConversationRecord, metrics: AppConversation['metrics']): AppConversation {
    const info = this.conversations.info(record);
    const sandbox = record.sandboxId ? this.ctx.sandboxes.find(record.sandboxId) : null;
    return {
      id: record.id,
      created_by_user_id: null,
      sandbox_id: record.sandboxId,
      selected_repository: record.selectedRepository,
      selected_branch: record.selectedBranch,
      git_provider: record.gitProvider,
      title: record.title,
      trigger: record.trigger,
      pr_number: record.prNumber,
      llm_model: conversationModel(this.ctx, record),
      metrics,
      parent_conversation_id: record.parentConversationId,
      sub_conversation_ids: info.sub_conversation_ids,
      created_at: record.createdAt,
      updated_at: record.lastUpdatedAt,
      sandbox_status: sandbox?.status ?? null,
      execution_status:
        record.status === 'STOPPED' || !info.agent_state
          ? null
          : (EXECUTION_STATUS[info.agent_state] ?? null),
      conversation_url: sandbox ? conversationUrl(sandbox, record.id) : null,
      session_api_key: info.session_api_key,
      agent: record.agent,
      dockhand_state: info.dockhand_state,
      changed_files: info.changed_files,
    };
  }

  private async run(taskId: string, request: AppConversationStartRequest): Promise<void> {
    let stopWatching: (() => void) | null = null;
    try {
      const parent = request.parent_conversation_id ? this.store.get(request.parent_conversation_id) : null;
      const text = request.initial_message?.content
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('\n')
        .trim();
      const images =
        request.initial_message?.content.flatMap((part) => (part.type === 'image' ? part.image_urls : [])) ??
        [];
      const record = await this.conversations.create(
        {
          repository: request.selected_repository ?? parent?.selectedRepository ?? null,
          git_provider: (request.git_provider ?? parent?.gitProvider ?? null) as never,
          selected_branch: request.selected_branch ?? parent?.selectedBranch ?? null,
          initial_user_msg: text || null,
          image_urls: images,
          conversation_instructions: request.system_message_suffix ?? null,
          network_policy: request.network_policy ?? null,
          ...(request.conversation_id ? { conversation_id: request.conversation_id } : {}),
          agent: request.agent ?? parent?.agent ?? null,
        },
        {
          version: 'V1',
          title: request.title ?? null,
          llmModel: request.llm_model ?? parent?.llmModel ?? null,
          parentId: parent?.id ?? null,
          sandboxId: request.sandbox_id ?? parent?.sandboxId ?? null,
          trigger: request.trigger ?? null,
          prNumber: request.pr_number,
        },
      );
      await new Promise<void>((resolve) => {
        const onStage = (stage: StartStage) => {
          if (stage.stage === 'failed') {
            this.fail(taskId, stage.failure.message);
            return resolve();
          }
          const current = this.conversations.require(record.id);
          this.advance(taskId, startTaskStatusOf(stage), {
            sandbox_id: current.sandboxId,
            agent_server_url: current.sandboxId
              ? agentServerUrl(this.ctx.sandboxes.find(current.sandboxId))
              : null,
          });
          if (stage.stage === 'ready') {
            this.advance(taskId, 'READY', { app_conversation_id: record.id });
            resolve();
          }
        };
        stopWatching = this.conversations.onStartStage(record.id, onStage);
        // The start may have got this far before we listened.
        const reached = this.conversations.startStage(record.id);
        if (reached?.stage === 'ready' || reached?.stage === 'failed') onStage(reached);
        else if (this.conversations.require(record.id).status === 'STOPPED') {
          this.fail(taskId, 'The conversation could not start');
          resolve();
        }
      });
    } catch (error) {
      const body =
        error instanceof HttpError ? (error.body as { detail?: unknown; message?: unknown }) : null;
      const detail = body
        ? String(body.detail ?? body.message)
        : error instanceof Error
          ? error.message
          : String(error);
      this.fail(taskId, detail);
    } finally {
      (stopWatching as (() => void) | null)?.();
    }
  }

  /** Moves a task forward through every stage up to `target`, each recorded in order. */
  private advance(taskId: string, target: StartTaskStatus, changes: Partial<AppConversationStartTask>): void {
    const task = this.tasks.get(taskId);
    if (!task || FINAL.includes(task.status)) return;
    const from = START_TASK_STATUSES.indexOf(task.status);
    const to = START_TASK_STATUSES.indexOf(target);
    for (let i = from + 1; i <= to; i++) {
      this.tasks.update(taskId, { status: START_TASK_STATUSES[i] as StartTaskStatus, ...changes });
      this.changes.emit(taskId, this.tasks.get(taskId));
    }
  }

  private fail(taskId: string, detail: string): void {
    const task = this.tasks.get(taskId);
    if (!task || FINAL.includes(task.status)) return;
    this.tasks.update(taskId, { status: 'ERROR', detail });
    this.changes.emit(taskId, this.tasks.get(taskId));
  }
}
