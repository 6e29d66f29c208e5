import type { SandboxStatus } from '../../../shared/api/sandboxes';
import type { useSandboxAction } from '../api/sandbox-queries';

const STEPS = {
  RUNNING: { action: 'pause', verb: 'Suspend', pendingLabel: 'Suspending…' },
  PAUSED: { action: 'resume', verb: 'Resume', pendingLabel: 'Resuming…' },
} as const;

interface PauseResumeButtonProps {
  status: SandboxStatus | undefined;
  action: ReturnType<typeof useSandboxAction>;
  /** Shown after the verb, e.g. `sandbox` for "Suspend sandbox". */
  object?: string;
  /** The accessible name after the verb, when the visible label alone is ambiguous. */
  namedFor?: string;
}

/**
 * Suspend for a running sandbox, Resume for a suspended one, nothing otherwise. ("Suspend", not "Pause":
 * pausing is what the agent does, and a person must be able to tell the two apart.)
 */
export function PauseResumeButton({ status, action, object, namedFor }: PauseResumeButtonProps) {
  if (status !== 'RUNNING' && status !== 'PAUSED') return null;
  const step = STEPS[status];
  return (
    <button
      type="button"
      className="button-secondary button-small"
      title={
        status === 'RUNNING' ? 'Freeze the container: it keeps its files and frees CPU and memory' : undefined
      }
      aria-label={namedFor ? `${step.verb} ${namedFor}` : undefined}
      disabled={action.isPending}
      onClick={() => action.mutate(step.action)}
    >
      {action.isPending && action.variables === step.action
        ? step.pendingLabel
        : object
          ? `${step.verb} ${object}`
          : step.verb}
    </button>
  );
}
