import { useWebHosts } from '../../api/workspace-queries';
import { WorkspaceProblem } from './WorkspaceProblem';

/** The sandbox's app ports as reachable from this machine, to open in the browser. */
export function WebHostsPanel({ conversationId }: { conversationId: string }) {
  const hosts = useWebHosts(conversationId, true);
  if (hosts.isPending) return <p className="muted">Looking for web hosts…</p>;
  if (hosts.isError) return <WorkspaceProblem error={hosts.error} what="the web hosts" />;
  const entries = Object.entries(hosts.data);
  if (entries.length === 0) {
    return (
      <div className="empty-state">
        <p className="empty-state-title">No web hosts</p>
        <p className="muted">
          While the sandbox runs, an app the agent serves on port 8011 or 8012 (on 0.0.0.0) can be opened
          here.
        </p>
      </div>
    );
  }
  return (
    <>
      <p className="muted">
        The sandbox's ports 8011 and 8012 on this machine: they answer once the agent serves an app on them.
      </p>
      <ul className="web-hosts" aria-label="Web hosts">
        {entries.map(([url]) => (
          <li key={url}>
            <a href={url} target="_blank" rel="noreferrer">
              {url}
            </a>
          </li>
        ))}
      </ul>
    </>
  );
}
