import type { SandboxStatus } from '../../../shared/api/sandboxes';
import type { Tone } from '../ui/tone';

const TONES: Record<SandboxStatus, Tone | 'info'> = {
  STARTING: 'info',
  RUNNING: 'ok',
  PAUSED: 'warning',
  ERROR: 'error',
  MISSING: 'warning',
};

const LABELS: Record<SandboxStatus, string> = {
  STARTING: 'Starting',
  RUNNING: 'Running',
  PAUSED: 'Suspended',
  ERROR: 'Error',
  MISSING: 'Missing',
};

export function SandboxStatusBadge({ status }: { status: SandboxStatus }) {
  return <span className={`badge badge-${TONES[status]}`}>{LABELS[status]}</span>;
}
