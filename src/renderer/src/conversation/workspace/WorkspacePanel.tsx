import { useEffect, useState, type ReactNode } from 'react';
import type { V0Event } from '../../../../shared/api/events';
import { useRefreshWorkspace } from '../../api/workspace-queries';
import { Tabs, type Tab } from '../../ui/Tabs';
import { TerminalTab } from '../terminal/TerminalTab';
import { ChangesPanel } from './ChangesPanel';
import { FilesPanel } from './FilesPanel';
import { NetworkPanel } from './NetworkPanel';
import { WebHostsPanel } from './WebHostsPanel';

/** A tab of the panel: adding a view is adding an entry here. The terminal has no `render`: it stays mounted. */
interface WorkspaceTab extends Tab<string> {
  render: ((conversationId: string) => ReactNode) | null;
}

const TERMINAL = 'terminal';

const TABS: readonly WorkspaceTab[] = [
  { key: 'changes', label: 'Changes', render: (id) => <ChangesPanel conversationId={id} /> },
  { key: 'files', label: 'Files', render: (id) => <FilesPanel conversationId={id} /> },
  { key: TERMINAL, label: 'Terminal', render: null },
  { key: 'web-hosts', label: 'Web hosts', render: (id) => <WebHostsPanel conversationId={id} /> },
  { key: 'network', label: 'Network', render: (id) => <NetworkPanel conversationId={id} /> },
];

interface WorkspacePanelProps {
  conversationId: string;
  /** Changes whenever the agent may have changed the workspace (the id of its last such event). */
  revision: number;
  /** Whether the workspace can be read (the conversation and its sandbox run): read again when this changes. */
  open: boolean;
  /** The conversation's events (the Terminal tab shows the agent's commands from them). */
  events: readonly V0Event[];
  /** The action the agent waits to run, shown above the tabs until it is answered. */
  confirmation?: ReactNode;
}

/**
 * Beside the events: the action waiting for confirmation, if any, then what the agent changed, the
 * workspace's files, a terminal and its web hosts, one tab each.
 */
export function WorkspacePanel({
  conversationId,
  revision,
  open,
  events,
  confirmation,
}: WorkspacePanelProps) {
  const [tab, setTab] = useState('changes');
  // Once opened, the terminal stays mounted (hidden on other tabs), so its shell outlives a look at the files.
  const [terminalOpened, setTerminalOpened] = useState(false);
  if (tab === TERMINAL && !terminalOpened) setTerminalOpened(true);
  const refresh = useRefreshWorkspace(conversationId);
  const shown = TABS.find((candidate) => candidate.key === tab) ?? TABS[0];

  // A look taken while the workspace was not open yet (409) is not kept once it is.
  useEffect(() => {
    if (revision >= 0 || open) void refresh();
  }, [revision, open, refresh]);

  return (
    <section className="workspace-panel" aria-label="Workspace">
      {confirmation}
      <Tabs tabs={TABS} selected={tab} onSelect={setTab} label="Workspace views">
        {shown?.render?.(conversationId)}
        {terminalOpened && (
          <div hidden={tab !== TERMINAL} className="terminal-tab-holder">
            <TerminalTab conversationId={conversationId} events={events} />
          </div>
        )}
      </Tabs>
    </section>
  );
}
