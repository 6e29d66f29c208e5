import type { V0Event } from '../../shared/api/events';
import type { DockhandEvent } from './model/dockhand-event';
import { fromV0 } from './model/v0-codec';

/**
 * How a row of the `events` table holds its event: `dockhand` rows hold a `DockhandEvent`; `v0` rows were
 * written by versions that stored the V0 wire event, and are read through the V0 mapper, so conversations
 * of earlier installs replay unchanged without rewriting their rows.
 */
export type StoredFormat = 'dockhand' | 'v0';

export const STORED_FORMAT: StoredFormat = 'dockhand';

export interface StoredRow {
  format: string;
  data: string;
}

/** The event a row holds. */
export function readStoredEvent(row: StoredRow): DockhandEvent {
  const parsed: unknown = JSON.parse(row.data);
  return row.format === 'v0' ? fromV0(parsed as V0Event) : (parsed as DockhandEvent);
}
