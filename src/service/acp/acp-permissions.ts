import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import type { AgentState } from '../agent/agent-events';
import type { AcpEvents } from './acp-events';

interface PendingPermission {
  toolCallId: string;
  options: PermissionOption[];
  answer(response: RequestPermissionResponse): void;
}

export const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

/** The agent's state as the permissions read and move it. */
export interface PermissionState {
  get(): AgentState;
  set(state: AgentState): void;
}

/**
 * An ACP agent's permission requests: with confirmation mode off Dockhand answers `allow_once` itself and
 * records that it did; otherwise each request is recorded and waits (`awaiting_user_confirmation`) for the
 * user's confirm or reject, oldest first, or for the agent to withdraw it.
 */
export class AcpPermissions {
  private readonly pending: PendingPermission[] = [];

  constructor(
    private readonly events: AcpEvents,
    private readonly confirmationMode: boolean,
    private readonly state: PermissionState,
  ) {}

  request(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
    if (!this.confirmationMode) {
      const allow = pick(request.options, 'allow_once', 'allow_always');
      if (allow) {
        this.events.permissionGranted(request.toolCall, allow);
        return Promise.resolve({ outcome: { outcome: 'selected', optionId: allow.optionId } });
      }
    }
    this.events.permissionAsked(request.toolCall, request.options);
    this.state.set('awaiting_user_confirmation');
    return new Promise((resolve) => {
      const pending: PendingPermission = {
        toolCallId: request.toolCall.toolCallId,
        options: request.options,
        answer: (response) => {
          const at = this.pending.indexOf(pending);
          if (at < 0) return;
          this.pending.splice(at, 1);
          resolve(response);
        },
      };
      this.pending.push(pending);
      // The agent withdrew the request (`$/cancel_request`): nobody is asked any more.
      signal.addEventListener('abort', () => {
        pending.answer(CANCELLED);
        if (!this.pending.length && this.state.get() === 'awaiting_user_confirmation') {
          this.state.set('running');
        }
      });
    });
  }

  confirm(optionId?: string): void {
    const pending = this.pending[0];
    if (!pending) return;
    const option =
      (optionId && pending.options.find((o) => o.optionId === optionId)) ||
      pick(pending.options, 'allow_once', 'allow_always');
    if (!option) return this.reject('', optionId);
    this.state.set('user_confirmed');
    this.events.permissionAnswered(pending.toolCallId, 'confirmed', {
      acp_permission: { option_id: option.optionId, kind: option.kind, answered_by: 'user' },
    });
    pending.answer({ outcome: { outcome: 'selected', optionId: option.optionId } });
    this.afterAnswer();
  }

  /** A plain reject answers `reject_once` (else the agent's other reject option, else `cancelled`). */
  reject(reason: string, optionId?: string): void {
    const pending = this.pending[0];
    if (!pending) return;
    const option =
      (optionId && pending.options.find((o) => o.optionId === optionId)) ||
      pick(pending.options, 'reject_once', 'reject_always');
    this.state.set('user_rejected');
    this.events.permissionAnswered(
      pending.toolCallId,
      'rejected',
      {
        acp_permission: {
          option_id: option?.optionId ?? null,
          kind: option?.kind ?? 'cancelled',
          answered_by: 'user',
        },
      },
      reason,
    );
    pending.answer(option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : CANCELLED);
    this.afterAnswer();
  }

  /** Every pending request answered `cancelled` (the turn is cancelled, or the process ended). */
  cancelAll(): void {
    for (const pending of [...this.pending]) pending.answer(CANCELLED);
  }

  private afterAnswer(): void {
    this.state.set(this.pending.length ? 'awaiting_user_confirmation' : 'running');
  }
}

function pick(
  options: PermissionOption[],
  ...kinds: PermissionOption['kind'][]
): PermissionOption | undefined {
  for (const kind of kinds) {
    const found = options.find((option) => option.kind === kind);
    if (found) return found;
  }
  return undefined;
}
