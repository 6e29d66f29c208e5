import { useMemo, useState, type KeyboardEvent } from 'react';
import { isLocalRepository } from '../../../../shared/api/local-repository';
import type { GitChangeStatus } from '../../../../shared/api/workspace';
import { isApiError } from '../../api/api-error';
import { useConversation } from '../../api/conversation-queries';
import { useLocalRepository } from '../../api/local-repository-queries';
import { useGitChanges, useGitDiff } from '../../api/workspace-queries';
import { DiffView } from '../DiffView';
import { diffStat, unifiedDiff } from '../unified-diff';
import { LocalRepositoryExport } from './LocalRepositoryExport';
import { WorkspaceProblem } from './WorkspaceProblem';

const STATUS_WORDS: Record<GitChangeStatus, string> = {
  M: 'Modified',
  A: 'Added',
  D: 'Deleted',
  R: 'Renamed',
  U: 'Conflict',
};

function FileDiff({ conversationId, path }: { conversationId: string; path: string }) {
  const diff = useGitDiff(conversationId, path);
  const text = useMemo(
    () => (diff.data ? unifiedDiff(path, diff.data.original, diff.data.modified) : ''),
    [diff.data, path],
  );
  if (diff.isPending) return <p className="muted">Reading the diff…</p>;
  if (diff.isError) return <WorkspaceProblem error={diff.error} what="the diff" />;
  if (text === '') return <p className="muted">No difference in the text (a mode or rename change).</p>;
  const { added, removed } = diffStat(text);
  return (
    <>
      <p className="diff-summary">
        <span className="diff-path">{path}</span>
        <span className="diff-stat-added">+{added}</span>
        <span className="diff-stat-removed">−{removed}</span>
      </p>
      <DiffView diff={text} label={`Changes to ${path}`} />
    </>
  );
}

/** Moves between the files of the list with the arrow keys, as in a list box. */
function moveInList(event: KeyboardEvent<HTMLUListElement>) {
  const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
  if (step === undefined) return;
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button')];
  const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const next = buttons[index + step];
  if (!next) return;
  event.preventDefault();
  next.focus();
  next.click();
}

/**
 * The files changed since HEAD (since the starting snapshot for a repository of this machine) and the diff
 * of one of them, re-read whenever the agent edits; for a repository of this machine, the ways to bring the
 * work back follow in a footer that stays in view.
 */
export function ChangesPanel({ conversationId }: { conversationId: string }) {
  const conversation = useConversation(conversationId).data;
  const onThisMachine = isLocalRepository(conversation?.selected_repository ?? '');
  const local = useLocalRepository(conversationId, onThisMachine).data;
  const changes = useGitChanges(conversationId, true);
  // What "applied" refers to: once the changes differ, they can be applied again.
  const changeSet = changes.data?.map((file) => `${file.status}${file.path}`).join('\0') ?? '';
  const title = conversation?.title ?? '';
  return (
    <div className="changes-review">
      <ChangedFiles conversationId={conversationId} />
      {local && (changes.data?.length ?? 0) > 0 && (
        <LocalRepositoryExport
          key={changeSet}
          conversationId={conversationId}
          title={title}
          repository={local}
        />
      )}
    </div>
  );
}

function ChangedFiles({ conversationId }: { conversationId: string }) {
  const changes = useGitChanges(conversationId, true);
  const [chosen, setChosen] = useState<string | null>(null);

  if (changes.isPending) return <p className="muted">Reading the changes…</p>;
  if (changes.isError) {
    if (isApiError(changes.error, 404) && /git repository/i.test(changes.error.message)) {
      return (
        <div className="empty-state">
          <p className="empty-state-title">The workspace is not a git repository</p>
          <p className="muted">Changes are listed for conversations started on a repository.</p>
        </div>
      );
    }
    return <WorkspaceProblem error={changes.error} what="the changes" />;
  }
  const files = changes.data;
  if (files.length === 0) {
    return (
      <div className="empty-state">
        <p className="empty-state-title">No changes yet</p>
        <p className="muted">
          The working tree matches the last commit (or the starting snapshot). Edits by the agent appear here.
        </p>
      </div>
    );
  }
  const shown = files.find((file) => file.path === chosen) ?? files[0];
  return (
    <div className="changes">
      <ul className="change-list" aria-label="Changed files" onKeyDown={moveInList}>
        {files.map((file) => (
          <li key={file.path}>
            <button
              type="button"
              className="change-item"
              aria-current={file === shown ? 'true' : undefined}
              onClick={() => setChosen(file.path)}
            >
              <span className={`change-status change-${file.status}`} title={STATUS_WORDS[file.status]}>
                {file.status}
              </span>
              <span className="visually-hidden">{STATUS_WORDS[file.status]}: </span>
              <span className="change-path">{file.path}</span>
            </button>
          </li>
        ))}
      </ul>
      {shown && <FileDiff key={shown.path} conversationId={conversationId} path={shown.path} />}
    </div>
  );
}
