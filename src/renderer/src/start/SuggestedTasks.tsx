import { useState } from 'react';
import type { SuggestedTaskItem } from '../../../shared/api/git';
import { useCreateConversation } from '../api/conversation-queries';
import { useSuggestedTasks } from '../api/git-queries';
import { conversationHref, navigate } from '../routing';
import { Notice } from '../ui/Notice';
import { StartFailure } from './StartFailure';

const TASK_TYPES: Record<SuggestedTaskItem['task_type'], string> = {
  OPEN_ISSUE: 'Open issue',
  MERGE_CONFLICTS: 'Merge conflicts',
  FAILING_CHECKS: 'Failing checks',
  UNRESOLVED_COMMENTS: 'Unresolved comments',
};

function taskKey(task: SuggestedTaskItem): string {
  return `${task.git_provider}:${task.repo}#${task.issue_number}:${task.task_type}`;
}

/** Open pull requests that need work and issues assigned to the user; each one starts a conversation. */
export function SuggestedTasks() {
  const tasks = useSuggestedTasks(true);
  const create = useCreateConversation();
  const [startedKey, setStartedKey] = useState<string | null>(null);

  function start(task: SuggestedTaskItem) {
    if (create.isPending) return;
    setStartedKey(taskKey(task));
    create.mutate(
      {
        suggested_task: {
          repo: task.repo,
          issue_number: task.issue_number,
          title: task.title,
          git_provider: task.git_provider,
          task_type: task.task_type,
        },
      },
      { onSuccess: ({ conversation_id }) => navigate(conversationHref(conversation_id)) },
    );
  }

  return (
    <section className="panel" aria-labelledby="tasks-heading">
      <div className="panel-heading">
        <h2 id="tasks-heading">Suggested tasks</h2>
        {tasks.data && (
          <button
            type="button"
            className="button-secondary button-small"
            disabled={tasks.isFetching}
            onClick={() => void tasks.refetch()}
          >
            {tasks.isFetching ? 'Refreshing…' : 'Refresh'}
          </button>
        )}
      </div>
      <p className="muted">Pull requests of yours that need work, and issues assigned to you.</p>
      {tasks.isPending && <p className="muted">Loading suggested tasks…</p>}
      {tasks.isError && (
        <Notice tone="error" title="Suggested tasks could not be loaded">
          <p>{tasks.error.message}</p>
          <p>
            <button
              type="button"
              className="button-secondary button-small"
              onClick={() => void tasks.refetch()}
            >
              Try again
            </button>
          </p>
        </Notice>
      )}
      {tasks.data?.length === 0 && <p className="empty-inline">Nothing needs your attention right now.</p>}
      {tasks.data && tasks.data.length > 0 && (
        <ul className="task-list" aria-label="Suggested tasks">
          {tasks.data.map((task) => {
            const key = taskKey(task);
            const starting = create.isPending && startedKey === key;
            return (
              <li key={key} className="task-item">
                <div className="task-info">
                  <span className="task-title">{task.title}</span>
                  <span className="task-meta">
                    <span className="badge badge-info">{TASK_TYPES[task.task_type]}</span>{' '}
                    <code>
                      {task.repo}#{task.issue_number}
                    </code>
                  </span>
                </div>
                <button
                  type="button"
                  className="button-secondary"
                  disabled={create.isPending}
                  aria-label={`Start: ${task.title} (${task.repo}#${task.issue_number})`}
                  onClick={() => start(task)}
                >
                  {starting ? 'Starting…' : 'Start'}
                </button>
                {create.isError && startedKey === key && (
                  <div className="task-error">
                    <StartFailure error={create.error} />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
