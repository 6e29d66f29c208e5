import type { ConversationInfo } from '../../../shared/api/conversations';

/** `owner/repo@branch`, or "No repository". */
export function RepositoryLabel({ conversation }: { conversation: ConversationInfo }) {
  const { selected_repository: repository, selected_branch: branch } = conversation;
  if (!repository) return <span className="muted">No repository</span>;
  return (
    <span className="repository-label" title="Repository and branch">
      {repository}
      {branch && <span className="muted">@{branch}</span>}
    </span>
  );
}
