import { useEffect, useState } from 'react';
import type { V0Event } from '../../../../shared/api/events';
import { useRefreshWorkspace } from '../../api/workspace-queries';
import { Tabs, type Tab } from '../../ui/Tabs';
import { TerminalTab } from '../terminal/TerminalTab';
import { ChangesPanel } from './ChangesPanel';
import { FilesPanel } from './FilesPanel';
import { WebHostsPanel } from './WebHostsPanel';

type WorkspaceTab = 'changes' | 'files' | 'terminal' | 'web-hosts';

const TABS: readonly Tab<WorkspaceTab>[] = [
  { key: 'changes', label: 'Changes' },
  { key: 'files', label: 'Files' },
  { key: 'terminal', label: 'Terminal' },
  { key: 'web-hosts', label: 'Web hosts' },
];

interface WorkspacePanelProps {
  conversationId: string;
  /** Changes whenever the agent may have changed the workspace (the id of its last such event). */
  revision: number;
  /** The conversation's events (the Terminal tab shows the agent's commands from them). */
  events: readonly V0Event[];
}

/** Beside the events: what the agent changed, the workspace's files, a terminal and its web hosts, one tab each. */
export function WorkspacePanel({ conversationId, revision, events }: WorkspacePanelProps) {
  const [tab, setTab] = useState<WorkspaceTab>('changes');
  // Once opened, the terminal stays mounted (hidden on other tabs), so its shell outlives a look at the files.
  const [terminalOpened, setTerminalOpened] = useState(false);
  if (tab === 'terminal' && !terminalOpened) setTerminalOpened(true);
  const refresh = useRefreshWorkspace(conversationId);

  useEffect(() => {
    if (revision >= 0) void refresh();
  }, [revision, refresh]);

  return (
    <section className="workspace-panel" aria-label="Workspace">
      <Tabs tabs={TABS} selected={tab} onSelect={setTab} label="Workspace views">
        {tab === 'changes' && <ChangesPanel conversationId={conversationId} />}
        {tab === 'files' && <FilesPanel conversationId={conversationId} />}
        {terminalOpened && (
          <div hidden={tab !== 'terminal'} className="terminal-tab-holder">
            <TerminalTab conversationId={conversationId} events={events} />
          </div>
        )}
        {tab === 'web-hosts' && <WebHostsPanel conversationId={conversationId} />}
      </Tabs>
    </section>
  );
}
