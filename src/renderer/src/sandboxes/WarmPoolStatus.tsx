import { useServerInfo } from '../api/server-queries';
import { settingsHref } from '../routing';
import { Notice } from '../ui/Notice';
import { TextWithCode } from '../ui/TextWithCode';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The warm pool as `/server_info` reports it: off, filling, ready, or why it cannot fill. */
export function WarmPoolStatus() {
  const info = useServerInfo();
  if (info.isPending) return <p className="muted">Loading the warm pool…</p>;
  if (info.isError) {
    return (
      <Notice tone="error" title="The warm pool could not be loaded">
        <p>{info.error.message}</p>
      </Notice>
    );
  }
  const pool = info.data.sandbox.warm_pool;
  if (pool.size === 0) {
    return (
      <p className="muted" data-testid="warm-pool">
        Off: each conversation creates its container when it starts. Turn it on in{' '}
        <a href={settingsHref('sandboxes')}>Settings</a>.
      </p>
    );
  }
  return (
    <div data-testid="warm-pool">
      <p>
        <strong>
          {pool.ready} of {plural(pool.size, 'container')} ready
        </strong>
        {pool.filling > 0 && <span className="muted"> · preparing {plural(pool.filling, 'container')}…</span>}
      </p>
      <p className="muted">
        Paused containers of <code>{pool.spec}</code>, made ahead of time: a new conversation takes one and
        starts at once, and another is made behind it. They use no CPU, do not count as live sandboxes, and
        are removed when Dockhand quits. Change the number in <a href={settingsHref('sandboxes')}>Settings</a>
        .
      </p>
      {pool.error && (
        <Notice tone="warning" title="The warm pool cannot fill">
          <p>
            <TextWithCode text={pool.error} />
          </p>
        </Notice>
      )}
    </div>
  );
}
