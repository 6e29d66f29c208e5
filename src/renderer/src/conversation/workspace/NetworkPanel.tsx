import { useNetworkLog } from '../../api/network-queries';
import { WorkspaceProblem } from './WorkspaceProblem';

/** How often the log is read again while the tab shows. */
const POLL_MS = 3_000;

/** What the conversation's sandbox asked to reach through Dockhand, allowed and refused, newest first. */
export function NetworkPanel({ conversationId }: { conversationId: string }) {
  const log = useNetworkLog(conversationId, true, POLL_MS);
  if (log.isPending) return <p className="muted">Reading the network log…</p>;
  if (log.isError) return <WorkspaceProblem error={log.error} what="the network log" />;
  if (log.data.length === 0) {
    return (
      <div className="empty-state">
        <p className="empty-state-title">No connections yet</p>
        <p className="muted">
          In a gated sandbox, every destination the agent’s tools ask for goes through Dockhand and is listed
          here, allowed or refused.
        </p>
      </div>
    );
  }
  return (
    <table className="network-log" aria-label="Network log">
      <thead>
        <tr>
          <th>Time</th>
          <th>Destination</th>
          <th>Outcome</th>
          <th>Rule</th>
        </tr>
      </thead>
      <tbody>
        {[...log.data].reverse().map((entry, index) => (
          <tr key={`${entry.at} ${index}`}>
            <td>{new Date(entry.at).toLocaleTimeString()}</td>
            <td>
              <code>
                {entry.host}:{entry.port}
              </code>
            </td>
            <td>
              <span className={`badge ${entry.allowed ? 'badge-ok' : 'badge-error'}`}>
                {entry.allowed ? 'Allowed' : entry.held ? 'Held' : 'Refused'}
              </span>
            </td>
            <td>{entry.rule}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
