import { useState, type FormEvent } from 'react';
import type { LocalRepositoryInfo } from '../../../../shared/api/local-repository';
import { useExportLocalRepository } from '../../api/local-repository-queries';

const DEFAULT_MESSAGE = 'Work from a Dockhand conversation';

/** `dockhand/<words of the title>`, a branch name git accepts. */
export function suggestedBranch(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `dockhand/${slug || 'work'}`;
}

/**
 * After the diff, in a footer that stays in view: brings the agent's work back to the repository on this
 * machine, as a new branch (its commits, and its uncommitted work as one commit with the message given
 * here) or into the working tree (once per set of changes: the panel renews this form when they change).
 */
export function LocalRepositoryExport({
  conversationId,
  title,
  repository,
}: {
  conversationId: string;
  title: string;
  repository: LocalRepositoryInfo;
}) {
  const [branch, setBranch] = useState(() => suggestedBranch(title));
  const [message, setMessage] = useState(DEFAULT_MESSAGE);
  const [applied, setApplied] = useState(false);
  const bringBack = useExportLocalRepository(conversationId);
  const result = bringBack.data;

  function createBranch(event: FormEvent) {
    event.preventDefault();
    bringBack.mutate({ mode: 'branch', branch: branch.trim(), message });
  }

  return (
    <section className="local-export" aria-labelledby="local-export-heading">
      {bringBack.error && (
        <div className="notice notice-error" role="alert">
          {bringBack.error.message}
        </div>
      )}
      {result?.mode === 'branch' && (
        <div className="notice notice-ok" role="status">
          Created branch <code>{result.branch}</code> at <code>{result.commit.slice(0, 12)}</code> with{' '}
          {result.commits} {result.commits === 1 ? 'commit' : 'commits'} in <code>{result.repository}</code>.
        </div>
      )}
      {result?.mode === 'apply' && (
        <div className="notice notice-ok" role="status">
          {result.files.length === 0 ? (
            'Your working tree already had every change.'
          ) : (
            <>
              Changed {result.files.length} {result.files.length === 1 ? 'file' : 'files'} in{' '}
              <code>{result.repository}</code>:
              <ul className="local-export-files">
                {result.files.map((file) => (
                  <li key={file.path}>
                    <span className={`change-status change-${file.status}`}>{file.status}</span>{' '}
                    <code>{file.path}</code>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      <h3
        id="local-export-heading"
        title={`The agent worked on its own copy${repository.branch ? ` of ${repository.branch}` : ''}; your folder is unchanged until you choose one of these.`}
      >
        Bring the changes back to <code>{repository.repository}</code>
      </h3>
      <form className="local-export-form" onSubmit={createBranch} noValidate>
        <label htmlFor="export-branch">New branch</label>
        <input
          id="export-branch"
          type="text"
          value={branch}
          spellCheck={false}
          title="Holds the agent’s commits; nothing is checked out."
          onChange={(e) => {
            setBranch(e.target.value);
            bringBack.reset();
          }}
        />
        <label htmlFor="export-message">Commit message</label>
        <input
          id="export-message"
          type="text"
          value={message}
          title="For the agent’s uncommitted work."
          onChange={(e) => setMessage(e.target.value)}
        />
        <div className="local-export-actions">
          {bringBack.isPending && (
            <span className="muted" role="status">
              Bringing the changes back…
            </span>
          )}
          <button
            type="button"
            className="button-secondary button-small"
            disabled={bringBack.isPending || applied}
            onClick={() => bringBack.mutate({ mode: 'apply' }, { onSuccess: () => setApplied(true) })}
          >
            {applied ? 'Applied to working tree' : 'Apply to working tree'}
          </button>
          <button
            type="submit"
            className="button-primary button-small"
            disabled={bringBack.isPending || !branch.trim()}
          >
            Create branch
          </button>
        </div>
      </form>
    </section>
  );
}
