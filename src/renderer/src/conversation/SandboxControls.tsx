import { useSandbox, useSandboxAction } from '../api/sandbox-queries';
import { PauseResumeButton } from '../sandboxes/PauseResumeButton';
import { SandboxStatusBadge } from '../sandboxes/SandboxStatusBadge';
import { Notice } from '../ui/Notice';

/**
 * The conversation's sandbox (its container): status, and Pause / Resume. Pausing stops the
 * conversation's agent and freezes the container; resuming starts both again.
 */
export function SandboxControls({ sandboxId }: { sandboxId: string }) {
  const sandbox = useSandbox(sandboxId);
  const action = useSandboxAction(sandboxId);
  const status = sandbox.data?.status;

  return (
    <div className="sandbox-controls">
      <span className="muted">Container</span>
      {status ? (
        <SandboxStatusBadge status={status} />
      ) : (
        sandbox.isPending && <span className="muted">…</span>
      )}
      <PauseResumeButton status={status} action={action} object="sandbox" />
      {sandbox.data?.error && <span className="fact-error">{sandbox.data.error}</span>}
      {sandbox.isError && <span className="fact-error">{sandbox.error.message}</span>}
      {action.isError && (
        <Notice tone="error" title="The sandbox did not change" live>
          <p>{action.error.message}</p>
        </Notice>
      )}
    </div>
  );
}
