import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  FileListBody,
  GitChangesBody,
  GitDiffBody,
  SelectFileBody,
  WebHostsBody,
} from '../../../shared/api/workspace';
import { isApiError } from './api-error';
import { useApi } from './ApiProvider';

/** Web hosts appear when the agent starts an app; a light poll finds them. */
const WEB_HOSTS_POLL_MS = 10_000;

const keys = {
  all: (id: string) => ['workspace', id],
  changes: (id: string) => ['workspace', id, 'changes'],
  diff: (id: string, path: string) => ['workspace', id, 'changes', 'diff', path],
  files: (id: string, folder: string) => ['workspace', id, 'files', folder],
  file: (id: string, file: string) => ['workspace', id, 'files', 'open', file],
  webHosts: (id: string) => ['workspace', id, 'web-hosts'],
} as const;

function workspacePath(id: string, rest: string, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return `/api/conversations/${encodeURIComponent(id)}${rest}${search ? `?${search}` : ''}`;
}

/** 409 from a workspace route: the conversation's sandbox is not running, so nothing can be read. */
export function sandboxNotRunning(error: unknown): boolean {
  return isApiError(error, 409);
}

// A stopped sandbox or a missing file will not answer differently on a second try.
const noRetryOnConflict = (failures: number, error: Error) =>
  failures < 2 && (isApiError(error, 0) || isApiError(error, 503));

export function useGitChanges(id: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: keys.changes(id),
    queryFn: () => api.get(workspacePath(id, '/git/changes'), GitChangesBody),
    enabled,
    retry: noRetryOnConflict,
  });
}

export function useGitDiff(id: string, path: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: keys.diff(id, path ?? ''),
    queryFn: () => api.get(workspacePath(id, '/git/diff', { path: path ?? '' }), GitDiffBody),
    enabled: path !== null,
    retry: noRetryOnConflict,
  });
}

/** One folder of the workspace ('' = its root), folders first, each ending with `/`. */
export function useFolder(id: string, folder: string, enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: keys.files(id, folder),
    queryFn: () => api.get(workspacePath(id, '/list-files', folder ? { path: folder } : {}), FileListBody),
    enabled,
    retry: noRetryOnConflict,
  });
}

export function useFileText(id: string, file: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: keys.file(id, file ?? ''),
    queryFn: async () =>
      (await api.get(workspacePath(id, '/select-file', { file: file ?? '' }), SelectFileBody)).code,
    enabled: file !== null,
    retry: noRetryOnConflict,
  });
}

export function useWebHosts(id: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: keys.webHosts(id),
    queryFn: async () => (await api.get(workspacePath(id, '/web-hosts'), WebHostsBody)).hosts,
    enabled,
    refetchInterval: WEB_HOSTS_POLL_MS,
  });
}

/** Re-reads the git changes (and open diffs) and the files, after the agent changed the workspace. */
export function useRefreshWorkspace(id: string) {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: keys.all(id) }), [queryClient, id]);
}

/** Fetches the workspace as `workspace.zip` and hands it to the browser's download. */
export function useDownloadWorkspace(id: string) {
  const api = useApi();
  return useCallback(async () => {
    const blob = await api.download(workspacePath(id, '/zip-directory'));
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = 'workspace.zip';
    link.click();
    URL.revokeObjectURL(url);
  }, [api, id]);
}
