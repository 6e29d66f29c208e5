import { desktopBridge } from '../api/connection';
import { useRecentConversations } from '../api/conversation-queries';
import { Field } from '../ui/Field';

/** How many recent repositories of this machine are offered. */
const RECENT_LIMIT = 5;

interface LocalRepositoryFieldProps {
  path: string;
  onPathChange: (path: string) => void;
  branch: string;
  onBranchChange: (branch: string) => void;
}

/** Repositories of this machine that recent conversations worked on, newest first, each once. */
function useRecentLocalRepositories(): string[] {
  const recent = useRecentConversations(50).data?.results ?? [];
  const paths = recent.map((c) => c.selected_repository).filter((r): r is string => !!r?.startsWith('/'));
  return [...new Set(paths)].slice(0, RECENT_LIMIT);
}

/**
 * A git repository on this machine to work on: its path (typed, picked in the desktop app's folder dialog,
 * or one of the recent ones) and optionally a branch. The agent gets its own copy; the folder stays as it is.
 */
export function LocalRepositoryField({
  path,
  onPathChange,
  branch,
  onBranchChange,
}: LocalRepositoryFieldProps) {
  const bridge = desktopBridge();
  const recent = useRecentLocalRepositories();

  async function choose() {
    const picked = await bridge?.chooseFolder();
    if (picked) onPathChange(picked);
  }

  return (
    <div className="local-repository">
      <div className="form-row">
        <Field
          id="start-local-path"
          label="Or a repository on this machine"
          hint="The absolute path of a git working tree. The agent works on its own copy, with your uncommitted changes; you review and bring the work back."
        >
          {(control) => (
            <div className="local-repository-path">
              <input
                type="text"
                {...control}
                value={path}
                placeholder="/home/you/projects/app"
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => onPathChange(e.target.value)}
              />
              {bridge && typeof bridge.chooseFolder === 'function' && (
                <button type="button" className="button-secondary" onClick={() => void choose()}>
                  Choose folder…
                </button>
              )}
            </div>
          )}
        </Field>
        {path.trim() && (
          <Field id="start-local-branch" label="Branch" hint="Empty: the current branch, as it is now.">
            {(control) => (
              <input
                type="text"
                {...control}
                value={branch}
                placeholder="current branch"
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => onBranchChange(e.target.value)}
              />
            )}
          </Field>
        )}
      </div>
      {recent.length > 0 && (
        <div className="local-repository-recent">
          <span className="muted">Recent on this machine:</span>
          <ul aria-label="Recent repositories on this machine">
            {recent.map((recentPath) => (
              <li key={recentPath}>
                <button
                  type="button"
                  className="button-secondary chip"
                  onClick={() => onPathChange(recentPath)}
                >
                  {recentPath}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
