import { isApiError } from '../../api/api-error';
import { sandboxNotRunning } from '../../api/workspace-queries';
import { capitalized } from '../../text';
import { Notice } from '../../ui/Notice';

/** Why a workspace view cannot show anything, and what brings it back. */
export function WorkspaceProblem({ error, what }: { error: Error; what: string }) {
  if (sandboxNotRunning(error)) {
    return (
      <Notice tone="info" title="The workspace is not open">
        <p>
          Its sandbox is not running yet, or is stopped. {capitalized(what)} will appear here once it runs.
        </p>
      </Notice>
    );
  }
  if (isApiError(error, 404) && /^Conversation .* not found/.test(error.message)) {
    // The service names the conversation by its id, which means nothing here.
    return (
      <Notice tone="info" title="This conversation no longer exists">
        <p>It was deleted, so there is no workspace to show.</p>
      </Notice>
    );
  }
  return (
    <Notice tone="error" title={`${capitalized(what)} could not be read`}>
      <p>{error.message}</p>
      {isApiError(error, 0) && <p>Check that the Dockhand service is running, then switch tabs to retry.</p>}
    </Notice>
  );
}
