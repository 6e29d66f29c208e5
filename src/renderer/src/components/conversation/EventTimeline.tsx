import { useMemo } from 'react';
import type { V0Event } from '../../../../shared/api/events';
import type { FeedMode } from '../../conversation/event-feed';
import { buildTimeline, type TimelineRow } from '../../conversation/timeline';
import { VirtualLog } from '../VirtualLog';
import { EventRow, estimateRowHeight, rowKey } from './EventRow';

function renderRow(row: TimelineRow) {
  return <EventRow row={row} />;
}

/** The conversation so far, windowed, following the newest event. */
export function EventTimeline({ events, mode }: { events: readonly V0Event[]; mode: FeedMode }) {
  const rows = useMemo(() => buildTimeline(events), [events]);
  return (
    <VirtualLog
      items={rows}
      itemKey={rowKey}
      estimateHeight={estimateRowHeight}
      renderItem={renderRow}
      label="Conversation events"
      empty={
        <p className="vlog-empty muted">
          {mode === 'loading' ? 'Loading the conversation…' : 'Nothing has happened yet.'}
        </p>
      }
    />
  );
}
