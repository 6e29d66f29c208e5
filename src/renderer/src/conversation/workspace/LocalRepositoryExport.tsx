import { useState, type FormEvent } from 'react';
import type { LocalRepositoryInfo } from '../../../../shared/api/local-repository';
import { useExportLocalRepository } from '../../api/local-repository-queries';
import { Field } from '../../ui/Field';

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
 * After the review: brings the agent's work back to the repository on this machine, as a new branch (its
 * commits, and its uncommitted work as one commit with the message given here) or into the working tree.
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
  const bringBack = useExportLocalRepository(conversationId);
  const result = bringBack.data;

  function createBranch(event: FormEvent) {
    event.preventDefault();
    bringBack.mutate({ mode: 'branch', branch: branch.trim(), message });
  }

  return (
    <section className="local-export" aria-labelledby="local-export-heading">
      <h3 id="local-export-heading">
        Bring the changes back to <code>{repository.repository}</code>
      </h3>
      <p className="muted">
        The agent worked on its own copy
        {repository.branch ? (
          <>
            {' '}
            of <code>{repository.branch}</code>
          </>
        ) : null}
        ; your folder is unchanged until you choose one of these.
      </p>
      <form className="form local-export-form" onSubmit={createBranch} noValidate>
        <div className="form-row">
          <Field
            id="export-branch"
            label="New branch"
            hint="Holds the agent’s commits; nothing is checked out."
          >
            {(control) => (
              <input
                type="text"
                {...control}
                value={branch}
                spellCheck={false}
                onChange={(e) => {
                  setBranch(e.target.value);
                  bringBack.reset();
                }}
              />
            )}
          </Field>
          <Field id="export-message" label="Commit message" hint="For the agent’s uncommitted work.">
            {(control) => (
              <input type="text" {...control} value={message} onChange={(e) => setMessage(e.target.value)} />
            )}
          </Field>
        </div>
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={bringBack.isPending || !branch.trim()}>
            Create branch
          </button>
          <button
            type="button"
            className="button-secondary"
            disabled={bringBack.isPending}
            onClick={() => bringBack.mutate({ mode: 'apply' })}
          >
            Apply to working tree
          </button>
          {bringBack.isPending && (
            <span className="muted" role="status">
              Bringing the changes back…
            </span>
          )}
        </div>
      </form>
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
    </section>
  );
}
