import type { NewDockhandEvent } from '../../events/model/dockhand-event';

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
): NewDockhandEvent {
  return {
    kind: 'notice',
    source: 'environment',
    name: CONTEXT_WARNING_OBSERVATION,
    text: message,
    details: { reason, ...numbers },
    hidden: true,
  };
}
