import { useState } from 'react';
import { useWebHosts } from '../../api/workspace-queries';
import { WorkspaceProblem } from './WorkspaceProblem';

/**
 * The ports apps in the sandbox listen on, as reachable from this machine: each can be previewed in a pane
 * (reloaded at will) or opened in the browser. A port shows once something listens on it and goes when it
 * closes.
 */
export function WebHostsPanel({ conversationId }: { conversationId: string }) {
  const hosts = useWebHosts(conversationId, true);
  const [chosen, setChosen] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  if (hosts.isPending) return <p className="muted">Looking for web hosts…</p>;
  if (hosts.isError) return <WorkspaceProblem error={hosts.error} what="the web hosts" />;
  const urls = Object.keys(hosts.data);
  if (urls.length === 0) {
    return (
      <div className="empty-state">
        <p className="empty-state-title">No web hosts</p>
        <p className="muted">
          While the sandbox runs, any port an app of the agent listens on shows here, forwarded to this
          computer.
        </p>
      </div>
    );
  }
  const previewed = chosen && urls.includes(chosen) ? chosen : null;
  return (
    <div className="web-hosts-panel">
      <ul className="web-hosts" aria-label="Web hosts">
        {urls.map((url) => (
          <li key={url}>
            <button
              type="button"
              className="button-link"
              aria-pressed={previewed === url}
              onClick={() => setChosen(url)}
            >
              {url}
            </button>{' '}
            <a href={url} target="_blank" rel="noreferrer">
              Open in browser
            </a>
          </li>
        ))}
      </ul>
      {previewed && (
        <div className="web-host-preview">
          <p className="web-host-preview-bar">
            <span>{previewed}</span>
            <button type="button" className="button-secondary" onClick={() => setReloads((n) => n + 1)}>
              Reload
            </button>
          </p>
          <iframe
            key={`${previewed} ${reloads}`}
            title={`Preview of ${previewed}`}
            src={previewed}
            sandbox="allow-scripts allow-forms"
          />
        </div>
      )}
    </div>
  );
}
