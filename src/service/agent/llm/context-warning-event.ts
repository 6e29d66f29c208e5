import type { NewEvent } from '../../../shared/api/events';

/** The observation of a context problem on a local model's server, shown to the user and not to the model. */
export const CONTEXT_WARNING_OBSERVATION = 'context_warning';

/**
 * A visible warning in the conversation: the server cut the prompt (`truncated`), or cannot give the
 * context an agent turn needs (`too_small`). Hidden from the model's messages.
 */
export function contextWarningEvent(
  reason: 'truncated' | 'too_small',
  message: string,
  numbers: Record<string, number>,
): NewEvent {
  return {
    source: 'environment',
    message,
    observation: CONTEXT_WARNING_OBSERVATION,
    content: message,
    extras: { reason, ...numbers, hidden: true },
  };
}
