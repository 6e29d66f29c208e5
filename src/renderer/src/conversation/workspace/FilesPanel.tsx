import { useState } from 'react';
import { isApiError } from '../../api/api-error';
import { useDownloadWorkspace, useFileText, useFolder } from '../../api/workspace-queries';
import { Notice } from '../../ui/Notice';
import { WorkspaceProblem } from './WorkspaceProblem';

interface TreeProps {
  conversationId: string;
  /** '' for the workspace itself, else a folder path ending with `/`. */
  folder: string;
  opened: string | null;
  onOpen: (file: string) => void;
}

function entryName(entry: string): string {
  const trimmed = entry.endsWith('/') ? entry.slice(0, -1) : entry;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

function FolderEntry({ conversationId, folder, opened, onOpen }: TreeProps) {
  const [expanded, setExpanded] = useState(false);
  return (
    <li>
      <button
        type="button"
        className="tree-item tree-folder"
        aria-expanded={expanded}
        onClick={() => setExpanded((open) => !open)}
      >
        {entryName(folder)}/
      </button>
      {expanded && <Folder conversationId={conversationId} folder={folder} opened={opened} onOpen={onOpen} />}
    </li>
  );
}

/** One folder's entries, folders first; a folder's own entries load when it is expanded. */
function Folder({ conversationId, folder, opened, onOpen }: TreeProps) {
  const entries = useFolder(conversationId, folder.replace(/\/$/, ''));
  if (entries.isPending) return <p className="tree-note muted">Loading…</p>;
  if (entries.isError) return <WorkspaceProblem error={entries.error} what="the files" />;
  if (entries.data.length === 0) return <p className="tree-note muted">Empty folder</p>;
  return (
    <ul className="tree" aria-label={folder ? undefined : 'Workspace files'}>
      {entries.data.map((entry) =>
        entry.endsWith('/') ? (
          <FolderEntry
            key={entry}
            conversationId={conversationId}
            folder={entry}
            opened={opened}
            onOpen={onOpen}
          />
        ) : (
          <li key={entry}>
            <button
              type="button"
              className="tree-item"
              aria-current={entry === opened ? 'true' : undefined}
              onClick={() => onOpen(entry)}
            >
              {entryName(entry)}
            </button>
          </li>
        ),
      )}
    </ul>
  );
}

function FileViewer({ conversationId, file }: { conversationId: string; file: string }) {
  const text = useFileText(conversationId, file);
  if (text.isPending) return <p className="muted">Opening {file}…</p>;
  if (text.isError) {
    if (isApiError(text.error, 415)) {
      return <p className="muted">{file} is a binary file: download the workspace to open it.</p>;
    }
    return <WorkspaceProblem error={text.error} what={file} />;
  }
  return (
    <figure className="file-view">
      <figcaption className="file-view-path">{file} (read-only)</figcaption>
      <pre className="file-view-text" tabIndex={0} aria-label={`Contents of ${file}`}>
        {text.data}
      </pre>
    </figure>
  );
}

/** The workspace as a tree, a read-only view of one text file, and the whole workspace as a zip. */
export function FilesPanel({ conversationId }: { conversationId: string }) {
  const [opened, setOpened] = useState<string | null>(null);
  const download = useDownloadWorkspace(conversationId);
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  async function startDownload() {
    setDownloading(true);
    setDownloadError(null);
    try {
      await download();
    } catch (error) {
      setDownloadError(error instanceof Error ? error.message : String(error));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <div className="files">
      <div className="panel-toolbar">
        <button
          type="button"
          className="button-secondary button-small"
          disabled={downloading}
          onClick={() => void startDownload()}
        >
          {downloading ? 'Preparing workspace.zip…' : 'Download workspace.zip'}
        </button>
      </div>
      {downloadError && (
        <Notice tone="error" title="The workspace could not be downloaded" live>
          <p>{downloadError}</p>
        </Notice>
      )}
      <div className="files-tree">
        <Folder conversationId={conversationId} folder="" opened={opened} onOpen={setOpened} />
      </div>
      {opened && <FileViewer key={opened} conversationId={conversationId} file={opened} />}
    </div>
  );
}
