import type { SandboxStatus } from '../../../shared/api/sandboxes';
import type { useSandboxAction } from '../api/sandbox-queries';

const STEPS = {
  RUNNING: { action: 'pause', verb: 'Pause', pendingLabel: 'Pausing…' },
  PAUSED: { action: 'resume', verb: 'Resume', pendingLabel: 'Resuming…' },
} as const;

interface PauseResumeButtonProps {
  status: SandboxStatus | undefined;
  action: ReturnType<typeof useSandboxAction>;
  /** Shown after the verb, e.g. `sandbox` for "Pause sandbox". */
  object?: string;
  /** The accessible name after the verb, when the visible label alone is ambiguous. */
  namedFor?: string;
}

/** Pause for a running sandbox, Resume for a paused one, nothing otherwise. */
export function PauseResumeButton({ status, action, object, namedFor }: PauseResumeButtonProps) {
  if (status !== 'RUNNING' && status !== 'PAUSED') return null;
  const step = STEPS[status];
  return (
    <button
      type="button"
      className="button-secondary button-small"
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
