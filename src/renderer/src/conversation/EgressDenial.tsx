import { createContext, useContext, useState } from 'react';
import { useAllowEgress } from '../api/network-queries';
import type { EgressRefusal } from './timeline-rows';

/** The conversation the timeline shows (what the denial's buttons act on). */
export const TimelineConversation = createContext<string | null>(null);

/** A connection the sandbox's egress policy refused, with the ways to let it through. */
export function EgressDenial({ refusal }: { refusal: EgressRefusal }) {
  const conversationId = useContext(TimelineConversation);
  const [done, setDone] = useState<'conversation' | 'always' | null>(null);
  const allow = useAllowEgress(conversationId ?? '');
  const destination = `${refusal.host}:${refusal.port}`;
  const choose = (scope: 'conversation' | 'always') =>
    allow.mutate({ entry: destination, scope }, { onSuccess: () => setDone(scope) });
  return (
    <div className="ev">
      <div className="ev-error ev-egress" role="group" aria-label={`Connection to ${destination} refused`}>
        <p className="ev-error-title">
          {refusal.held ? 'Network: connection waiting for you' : 'Network: connection refused'}
        </p>
        <p>
          The sandbox tried to reach <code>{destination}</code>; the policy refused it ({refusal.rule}).
          {refusal.held && ' It is held for up to 60 s: allowing it now lets it through.'}
        </p>
        {done ? (
          <p className="muted">
            {done === 'always' ? 'Allowed for every conversation' : 'Allowed for this conversation'}: the next
            try goes through.
          </p>
        ) : (
          conversationId && (
            <p className="ev-egress-actions">
              <button
                type="button"
                className="button-secondary"
                disabled={allow.isPending}
                onClick={() => choose('conversation')}
              >
                Allow for this conversation
              </button>
              <button
                type="button"
                className="button-secondary"
                disabled={allow.isPending}
                onClick={() => choose('always')}
              >
                Always allow
              </button>
            </p>
          )
        )}
        {allow.isError && <p className="field-error">{allow.error.message}</p>}
      </div>
    </div>
  );
}
