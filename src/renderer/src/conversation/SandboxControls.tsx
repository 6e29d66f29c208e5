import type { SandboxInfo } from '../../../shared/api/sandboxes';
import { useSandboxAction } from '../api/sandbox-queries';
import { PauseResumeButton } from '../sandboxes/PauseResumeButton';

/**
 * Suspend / Resume of the conversation's sandbox (its container): suspending freezes the container and
 * stops the agent; resuming starts both again. A failure shows in the button's tooltip and an alert.
 */
export function SandboxControls({ sandbox }: { sandbox: SandboxInfo }) {
  const action = useSandboxAction(sandbox.id);
  return (
    <>
      <PauseResumeButton status={sandbox.status} action={action} object="sandbox" />
      {action.isError && (
        <span role="alert" className="fact-error">
          The sandbox did not change: {action.error.message}
        </span>
      )}
    </>
  );
}
