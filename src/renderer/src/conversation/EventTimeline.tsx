import { useMemo, useState } from 'react';
import type { V0Event } from '../../../shared/api/events';
import { VirtualLog } from '../ui/VirtualLog';
import type { FeedMode } from './event-feed';
import { EventRow, estimateRowHeight, rowKey } from './EventRow';
import { TimelineBuilder } from './timeline';
import type { TimelineRow } from './timeline-rows';
import { formatClock, formatTimestamp } from './when';

/** Each row with its time, shown on hover (and to screen readers as the time element's text). */
function renderRow(row: TimelineRow) {
  return (
    <div className="ev-stamped">
      <EventRow row={row} />
      <time className="ev-time" dateTime={row.at} title={formatTimestamp(row.at)}>
        {formatClock(row.at)}
      </time>
    </div>
  );
}

/** The conversation so far, windowed, following the newest event. */
export function EventTimeline({ events, mode }: { events: readonly V0Event[]; mode: FeedMode }) {
  // Only the events after the last update are read again.
  const [timeline] = useState(() => new TimelineBuilder());
  const rows = useMemo(() => timeline.update(events), [timeline, events]);
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
