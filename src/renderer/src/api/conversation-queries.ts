import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { z } from 'zod';
import {
  ConversationCreateRequest,
  ConversationInfo,
  ConversationList,
  ConversationStartResponse,
  type UserActionRequest,
} from '../../../shared/api/conversations';
import { type AppConversation, AppConversationPage } from '../../../shared/api/app-conversations';
import { SuccessBody } from '../../../shared/api/errors';
import { useApi } from './ApiProvider';

const PAGE_SIZE = 20;
/** Lists and headers refresh this often, and every second while a conversation starts. */
const LIST_POLL_MS = 5_000;
const STARTING_POLL_MS = 1_000;

const keys = {
  all: ['conversations'],
  recent: (limit: number) => ['conversations', 'recent', limit],
  pages: ['conversations', 'pages'],
  one: (id: string) => ['conversations', 'one', id],
  models: ['conversations', 'models'],
} as const;

export type AgentStateRequest = Extract<
  UserActionRequest,
  { action: 'change_agent_state' }
>['args']['agent_state'];

function conversationPath(id: string, rest = ''): string {
  return `/api/conversations/${encodeURIComponent(id)}${rest}`;
}

export function useRecentConversations(limit: number) {
  const api = useApi();
  return useQuery({
    queryKey: keys.recent(limit),
    queryFn: () => api.get(`/api/conversations?limit=${limit}`, ConversationList),
    refetchInterval: LIST_POLL_MS,
  });
}

/** Every conversation, newest first, a page at a time (`next_page_id`). */
export function useConversationPages() {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: keys.pages,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (pageParam) query.set('page_id', pageParam);
      return api.get(`/api/conversations?${query.toString()}`, ConversationList);
    },
    getNextPageParam: (last) => last.next_page_id,
    refetchInterval: LIST_POLL_MS,
  });
}

export function useConversation(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: keys.one(id),
    queryFn: () => api.get(conversationPath(id), ConversationInfo),
    refetchInterval: (query) => (query.state.data?.status === 'STARTING' ? STARTING_POLL_MS : LIST_POLL_MS),
  });
}

/**
 * Fetches the conversation again whenever its agent's state in the live events changes: they tell of it a
 * moment before the record's next poll would (null: no state seen yet, nothing to catch up with).
 */
export function useRefetchOnAgentState(id: string, agentState: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (agentState !== null) void queryClient.invalidateQueries({ queryKey: keys.one(id) });
  }, [queryClient, id, agentState]);
}

/** What the V1 listing tells of a conversation that the V0 record does not: its model and metrics. */
export type ConversationUsage = Pick<AppConversation, 'llm_model' | 'metrics'>;

/**
 * Each conversation's model and metrics, by id (the V1 listing has them; the V0 one does not), for lists
 * that tell conversations apart. Empty until loaded.
 */
export function useConversationUsage(): ReadonlyMap<string, ConversationUsage> {
  const api = useApi();
  const page = useQuery({
    queryKey: keys.models,
    queryFn: () => api.get('/api/v1/app-conversations/search?limit=100', AppConversationPage),
    refetchInterval: LIST_POLL_MS,
  });
  return useMemo(
    () =>
      new Map(
        (page.data?.items ?? []).map(
          (item) => [item.id, { llm_model: item.llm_model, metrics: item.metrics }] as const,
        ),
      ),
    [page.data],
  );
}

/** Refreshes what is shown of conversations after something changed them. */
export function useRefreshConversations() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: keys.all }), [queryClient]);
}

function useConversationMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const refresh = useRefreshConversations();
  return useMutation({ mutationFn: run, onSuccess: refresh });
}

/** POST /api/conversations with a message, a repository and branch, images or a suggested task. */
export function useCreateConversation() {
  const api = useApi();
  return useConversationMutation((request: z.input<typeof ConversationCreateRequest>) =>
    api.send('POST', '/api/conversations', ConversationStartResponse, request),
  );
}

export function useRenameConversation() {
  const api = useApi();
  return useConversationMutation(({ id, title }: { id: string; title: string }) =>
    api.send('PATCH', conversationPath(id), z.literal(true), { title }),
  );
}

export function useDeleteConversation() {
  const api = useApi();
  return useConversationMutation((id: string) => api.send('DELETE', conversationPath(id), z.literal(true)));
}

export function useStartConversation(id: string) {
  const api = useApi();
  return useConversationMutation(() =>
    api.send('POST', conversationPath(id, '/start'), ConversationStartResponse, {}),
  );
}

export function useStopConversation(id: string) {
  const api = useApi();
  return useConversationMutation(() =>
    api.send('POST', conversationPath(id, '/stop'), ConversationStartResponse),
  );
}

export function useSendMessage(id: string) {
  const api = useApi();
  return useMutation({
    mutationFn: (message: string) =>
      api.send('POST', conversationPath(id, '/message'), SuccessBody, { message }),
  });
}

/** Pause, resume, confirm or reject: a `change_agent_state` user action. */
export function useChangeAgentState(id: string) {
  const api = useApi();
  return useConversationMutation(
    (answer: AgentStateRequest | { state: AgentStateRequest; optionId: string }) =>
      api.send('POST', conversationPath(id, '/events'), SuccessBody, {
        action: 'change_agent_state',
        args:
          typeof answer === 'string'
            ? { agent_state: answer }
            : // A coding agent's own option of a permission request (allow always, reject always…).
              { agent_state: answer.state, option_id: answer.optionId },
      } satisfies UserActionRequest),
  );
}
