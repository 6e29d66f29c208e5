import { useEffect, useState } from 'react';
import { useRefreshWorkspace } from '../../api/workspace-queries';
import { Tabs, type Tab } from '../../ui/Tabs';
import { ChangesPanel } from './ChangesPanel';
import { FilesPanel } from './FilesPanel';
import { WebHostsPanel } from './WebHostsPanel';

type WorkspaceTab = 'changes' | 'files' | 'web-hosts';

const TABS: readonly Tab<WorkspaceTab>[] = [
  { key: 'changes', label: 'Changes' },
  { key: 'files', label: 'Files' },
  { key: 'web-hosts', label: 'Web hosts' },
];

interface WorkspacePanelProps {
  conversationId: string;
  /** Changes whenever the agent may have changed the workspace (the id of its last such event). */
  revision: number;
}

/** Beside the events: what the agent changed, the workspace's files and its web hosts, one tab each. */
export function WorkspacePanel({ conversationId, revision }: WorkspacePanelProps) {
  const [tab, setTab] = useState<WorkspaceTab>('changes');
  const refresh = useRefreshWorkspace(conversationId);

  useEffect(() => {
    if (revision >= 0) void refresh();
  }, [revision, refresh]);

  return (
    <section className="workspace-panel" aria-label="Workspace">
      <Tabs tabs={TABS} selected={tab} onSelect={setTab} label="Workspace views">
        {tab === 'changes' && <ChangesPanel conversationId={conversationId} />}
        {tab === 'files' && <FilesPanel conversationId={conversationId} />}
        {tab === 'web-hosts' && <WebHostsPanel conversationId={conversationId} />}
      </Tabs>
    </section>
  );
}
