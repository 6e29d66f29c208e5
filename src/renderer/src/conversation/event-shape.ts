import type { V0Event } from '../../../shared/api/events';

const SOURCES = new Set(['agent', 'user', 'environment']);
const OPTIONAL_STRINGS = ['action', 'observation', 'content'] as const;
const OPTIONAL_RECORDS = ['args', 'extras', 'tool_call_metadata', 'llm_metrics'] as const;
const OPTIONAL_INTEGERS = ['cause', 'security_risk'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The parsed JSON of one event when it has the shape of `V0Event` (the fields the timeline reads, of the
 * right types; unknown keys pass), else null. The same checks as the zod schema, without its cost per
 * event, which a replay of thousands of events would pay on every load.
 */
export function asV0Event(value: unknown): V0Event | null {
  if (!isRecord(value)) return null;
  if (!Number.isInteger(value.id) || typeof value.timestamp !== 'string') return null;
  if (typeof value.message !== 'string' || !SOURCES.has(value.source as string)) return null;
  for (const key of OPTIONAL_STRINGS) {
    if (value[key] !== undefined && typeof value[key] !== 'string') return null;
  }
  for (const key of OPTIONAL_RECORDS) {
    if (value[key] !== undefined && !isRecord(value[key])) return null;
  }
  for (const key of OPTIONAL_INTEGERS) {
    if (value[key] !== undefined && !Number.isInteger(value[key])) return null;
  }
  if (value.success !== undefined && typeof value.success !== 'boolean') return null;
  return value as V0Event;
}
