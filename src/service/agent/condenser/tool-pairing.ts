import type { V0Event } from '../../../shared/api/events';
import type { CallMetadata } from '../call-metadata';

/** The tool call an event belongs to (an action or its result), unique across model responses. */
function callKey(event: V0Event): string | undefined {
  const metadata = event.tool_call_metadata as Partial<CallMetadata> | undefined;
  if (!metadata?.tool_call_id) return undefined;
  return `${metadata.model_response?.id ?? ''}\n${metadata.tool_call_id}`;
}

/** Tells which events go with a set of forgotten ones: the forgotten events and their tool partners. */
export class ForgottenPartners {
  private readonly goneCalls = new Set<string>();
  private readonly goneCauses = new Set<number>();

  /** `events` must include the forgotten events. */
  constructor(
    events: V0Event[],
    private readonly forgotten: ReadonlySet<number>,
  ) {
    for (const event of events) {
      if (!forgotten.has(event.id)) continue;
      const key = callKey(event);
      if (key) this.goneCalls.add(key);
      if (event.cause !== undefined) this.goneCauses.add(event.cause);
    }
  }

  /** Whether `event` is forgotten or the result or action of a forgotten event. */
  has(event: V0Event): boolean {
    if (this.forgotten.has(event.id)) return true;
    const key = callKey(event);
    return (
      (key !== undefined && this.goneCalls.has(key)) ||
      (event.cause !== undefined && this.forgotten.has(event.cause)) ||
      this.goneCauses.has(event.id)
    );
  }
}

/**
 * `forgotten` plus the partners of forgotten events among `events`: the results of a forgotten action and
 * the action of a forgotten result (linked by tool call or by `cause`), so that no call reaches the model
 * without its result, nor a result without its call. `events` must include the forgotten events.
 */
export function withToolPartners(events: V0Event[], forgotten: ReadonlySet<number>): Set<number> {
  const partners = new ForgottenPartners(events, forgotten);
  const result = new Set(forgotten);
  for (const event of events) if (partners.has(event)) result.add(event.id);
  return result;
}
