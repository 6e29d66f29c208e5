import type { ConversationStatus } from '../../../shared/api/conversations';
import { STATUS_LABELS, STATUS_TONES } from './words';

export function StatusBadge({ status }: { status: ConversationStatus }) {
  return <span className={`badge badge-${STATUS_TONES[status]}`}>{STATUS_LABELS[status]}</span>;
}
