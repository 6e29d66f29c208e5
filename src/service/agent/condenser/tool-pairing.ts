import type { V0Event } from '../../../shared/api/events';
import type { CallMetadata } from '../message-builder';

/** The tool call an event belongs to (an action or its result), unique across model responses. */
function callKey(event: V0Event): string | undefined {
  const metadata = event.tool_call_metadata as Partial<CallMetadata> | undefined;
  if (!metadata?.tool_call_id) return undefined;
  return `${metadata.model_response?.id ?? ''}\n${metadata.tool_call_id}`;
}

/**
 * `forgotten` plus the partners of forgotten events among `events`: the results of a forgotten action and
 * the action of a forgotten result (linked by tool call or by `cause`), so that no call reaches the model
 * without its result, nor a result without its call. `events` must include the forgotten events.
 */
export function withToolPartners(events: V0Event[], forgotten: ReadonlySet<number>): Set<number> {
  const goneCalls = new Set<string>();
  const goneCauses = new Set<number>();
  for (const event of events) {
    if (!forgotten.has(event.id)) continue;
    const key = callKey(event);
    if (key) goneCalls.add(key);
    if (event.cause !== undefined) goneCauses.add(event.cause);
  }
  const result = new Set(forgotten);
  for (const event of events) {
    const key = callKey(event);
    const partnerGone =
      (key !== undefined && goneCalls.has(key)) ||
      (event.cause !== undefined && forgotten.has(event.cause)) ||
      goneCauses.has(event.id);
    if (partnerGone) result.add(event.id);
  }
  return result;
}
