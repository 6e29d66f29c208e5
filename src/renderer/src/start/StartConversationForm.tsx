import { useState, type ClipboardEvent, type DragEvent, type FormEvent } from 'react';
import type { AgentKind } from '../../../shared/api/agents';
import type { Repository } from '../../../shared/api/git';
import type { GitProvider } from '../../../shared/api/settings';
import { useCreateConversation } from '../api/conversation-queries';
import { useStartBlocker } from '../api/server-queries';
import { isSubmitShortcut, submitShortcutLabel } from '../keyboard';
import { conversationHref, navigate, ROUTES } from '../routing';
import { Field, InputField } from '../ui/Field';
import { AgentPicker } from './AgentPicker';
import { BranchPicker } from './BranchPicker';
import { readAsDataUrl, sortImageFiles, type AttachedImage } from './image-files';
import { ImageAttachments } from './ImageAttachments';
import { LocalRepositoryField } from './LocalRepositoryField';
import { RepositoryPicker } from './RepositoryPicker';
import { StartFailure } from './StartFailure';

/** Providers whose repositories can be listed (Enterprise SSO tokens cannot). */
export function listingProviders(tokens: Record<string, string | null>): GitProvider[] {
  return (['github', 'gitlab', 'bitbucket'] as const).filter((provider) => provider in tokens);
}

let nextImageId = 0;

/**
 * A new conversation: the message, optionally a repository and branch, and images; the agent starts on
 * it in a fresh sandbox.
 */
export function StartConversationForm({ providerTokens }: { providerTokens: Record<string, string | null> }) {
  const providers = listingProviders(providerTokens);
  const [message, setMessage] = useState('');
  const [provider, setProvider] = useState<GitProvider | null>(providers[0] ?? null);
  const [repository, setRepository] = useState<Repository | null>(null);
  const [repositoryQuery, setRepositoryQuery] = useState('');
  const [branch, setBranch] = useState<string | null>(null);
  const [branchQuery, setBranchQuery] = useState('');
  const [images, setImages] = useState<AttachedImage[]>([]);
  const [imageProblems, setImageProblems] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  const [localPath, setLocalPath] = useState('');
  const [localBranch, setLocalBranch] = useState('');
  const [customSecrets, setCustomSecrets] = useState(true);
  const [agent, setAgent] = useState<AgentKind | null>(null);
  const create = useCreateConversation();
  const blocker = useStartBlocker();
  const shownProvider = provider && providers.includes(provider) ? provider : (providers[0] ?? null);

  function changed() {
    if (!create.isPending) create.reset();
  }

  function chooseRepository(chosen: Repository | null) {
    setRepository(chosen);
    setBranch(chosen?.main_branch ?? null);
    setBranchQuery('');
    changed();
  }

  async function attach(files: File[]) {
    const { accepted, problems } = sortImageFiles(files, images.length);
    const read = await Promise.allSettled(accepted.map(readAsDataUrl));
    const added: AttachedImage[] = [];
    read.forEach((result, index) => {
      const name = accepted[index]?.name ?? 'image';
      if (result.status === 'fulfilled')
        added.push({ id: `image-${nextImageId++}`, name, url: result.value });
      else problems.push(`${name} could not be read.`);
    });
    setImages((current) => [...current, ...added]);
    setImageProblems(problems);
    changed();
  }

  function onPaste(event: ClipboardEvent) {
    const files = [...event.clipboardData.files].filter((file) => file.type.startsWith('image/'));
    if (files.length === 0) return;
    event.preventDefault();
    void attach(files);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void attach([...event.dataTransfer.files]);
  }

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (create.isPending || blocker !== null) return;
    create.mutate(
      {
        ...(message.trim() ? { initial_user_msg: message } : {}),
        ...(localPath.trim()
          ? {
              repository: localPath.trim(),
              git_provider: null,
              ...(localBranch.trim() ? { selected_branch: localBranch.trim() } : {}),
            }
          : repository
            ? {
                repository: repository.full_name,
                git_provider: repository.git_provider,
                ...(branch ? { selected_branch: branch } : {}),
              }
            : {}),
        ...(images.length > 0 ? { image_urls: images.map((image) => image.url) } : {}),
        ...(customSecrets ? {} : { expose_custom_secrets: false }),
        ...(agent ? { agent } : {}),
      },
      { onSuccess: ({ conversation_id }) => navigate(conversationHref(conversation_id)) },
    );
  }

  return (
    <form
      className={dragging ? 'form start-form start-form-dragging' : 'form start-form'}
      onSubmit={submit}
      noValidate
      aria-labelledby="start-heading"
      onDragOver={(event) => {
        if (![...event.dataTransfer.types].includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <h2 id="start-heading">Start a conversation</h2>
      {providers.length > 0 ? (
        <div className="form-row start-source">
          <RepositoryPicker
            providers={providers}
            provider={shownProvider}
            onProviderChange={setProvider}
            selected={repository}
            onSelect={chooseRepository}
            query={repositoryQuery}
            onQueryChange={setRepositoryQuery}
          />
          {repository && (
            <BranchPicker
              key={`${repository.git_provider}:${repository.full_name}`}
              repository={repository}
              selected={branch}
              onSelect={(chosen) => {
                setBranch(chosen);
                changed();
              }}
              query={branchQuery}
              onQueryChange={setBranchQuery}
            />
          )}
        </div>
      ) : (
        <p className="muted start-no-provider">
          To work on one of your repositories,{' '}
          <a href={`${ROUTES.settings}`}>add a GitHub, GitLab or Bitbucket token in Settings</a>. Without one
          the agent starts in an empty workspace or on a repository of this machine.
        </p>
      )}
      <LocalRepositoryField
        path={localPath}
        onPathChange={(path) => {
          setLocalPath(path);
          changed();
        }}
        branch={localBranch}
        onBranchChange={(name) => {
          setLocalBranch(name);
          changed();
        }}
      />
      <Field
        id="start-message"
        label="What should the agent do?"
        hint={`The agent works in a new sandbox in /workspace/project. ${submitShortcutLabel()} starts it.`}
      >
        {(control) => (
          <textarea
            {...control}
            rows={4}
            value={message}
            placeholder="e.g. Write a Python script that prints the first 20 prime numbers, and run it."
            onChange={(e) => {
              setMessage(e.target.value);
              changed();
            }}
            onPaste={onPaste}
            onKeyDown={(e) => {
              if (!isSubmitShortcut(e)) return;
              e.preventDefault();
              submit();
            }}
          />
        )}
      </Field>
      <ImageAttachments
        images={images}
        problems={imageProblems}
        onFiles={(files) => void attach(files)}
        onRemove={(id) => {
          setImages((current) => current.filter((image) => image.id !== id));
          setImageProblems([]);
          changed();
        }}
      />
      <AgentPicker
        chosen={agent}
        onChange={(kind) => {
          setAgent(kind);
          changed();
        }}
      />
      <InputField
        id="start-custom-secrets"
        label="Give the agent my custom secrets"
        labelPosition="after"
        hint="Your custom secrets become environment variables in the sandbox. Git provider tokens are always there."
        type="checkbox"
        checked={customSecrets}
        onChange={(e) => {
          setCustomSecrets(e.target.checked);
          changed();
        }}
      />
      {create.error && <StartFailure error={create.error} />}
      <div className="form-actions">
        <button
          type="submit"
          className="button-primary"
          disabled={create.isPending || blocker !== null}
          aria-describedby={blocker ? 'start-blocked' : undefined}
        >
          {create.isPending ? 'Starting…' : 'Start conversation'}
        </button>
        {blocker && (
          <span id="start-blocked" className="start-blocked">
            {blocker}
          </span>
        )}
        {localPath.trim() ? (
          <span className="muted">
            on a copy of <code>{localPath.trim()}</code>
          </span>
        ) : (
          repository && (
            <span className="muted">
              on <code>{repository.full_name}</code>
              {branch ? (
                <>
                  {' '}
                  at <code>{branch}</code>
                </>
              ) : null}
            </span>
          )
        )}
      </div>
    </form>
  );
}
