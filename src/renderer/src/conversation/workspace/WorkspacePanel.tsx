import { useEffect, useState, type ReactNode } from 'react';
import { useRefreshWorkspace } from '../../api/workspace-queries';
import { Tabs, type Tab } from '../../ui/Tabs';
import { ChangesPanel } from './ChangesPanel';
import { FilesPanel } from './FilesPanel';
import { WebHostsPanel } from './WebHostsPanel';

/** A tab of the panel: adding a view is adding an entry here. */
interface WorkspaceTab extends Tab<string> {
  render: (conversationId: string) => ReactNode;
}

const TABS: readonly WorkspaceTab[] = [
  { key: 'changes', label: 'Changes', render: (id) => <ChangesPanel conversationId={id} /> },
  { key: 'files', label: 'Files', render: (id) => <FilesPanel conversationId={id} /> },
  { key: 'web-hosts', label: 'Web hosts', render: (id) => <WebHostsPanel conversationId={id} /> },
];

interface WorkspacePanelProps {
  conversationId: string;
  /** Changes whenever the agent may have changed the workspace (the id of its last such event). */
  revision: number;
}

/** Beside the events: what the agent changed, the workspace's files and its web hosts, one tab each. */
export function WorkspacePanel({ conversationId, revision }: WorkspacePanelProps) {
  const [tab, setTab] = useState('changes');
  const refresh = useRefreshWorkspace(conversationId);
  const shown = TABS.find((candidate) => candidate.key === tab) ?? TABS[0];

  useEffect(() => {
    if (revision >= 0) void refresh();
  }, [revision, refresh]);

  return (
    <section className="workspace-panel" aria-label="Workspace">
      <Tabs tabs={TABS} selected={tab} onSelect={setTab} label="Workspace views">
        {shown?.render(conversationId)}
      </Tabs>
    </section>
  );
}
