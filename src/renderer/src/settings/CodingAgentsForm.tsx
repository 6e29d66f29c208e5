import { useState, type FormEvent } from 'react';
import type { AgentInfo, AgentKind } from '../../../shared/api/agents';
import { useAgents, useInstallAgent } from '../api/agent-queries';
import { useSaveSettings, type StoredSettings } from '../api/settings-queries';
import { Notice } from '../ui/Notice';
import { TextWithCode } from '../ui/TextWithCode';

/** What an agent's install looks like in one line, and the button that installs it when it is not. */
function InstallState({ agent }: { agent: AgentInfo }) {
  const install = useInstallAgent();
  const { state, progress, error, size_bytes, install_seconds } = agent.install;
  if (agent.kind === 'dockhand') return <span className="muted">Built in</span>;
  if (state === 'installing') {
    return (
      <span role="status" className="agent-install">
        Installing… {progress}
      </span>
    );
  }
  if (state === 'installed') {
    const size = size_bytes === null ? '' : ` · ${Math.round(size_bytes / 1e6)} MB`;
    const took = install_seconds === null ? '' : ` in ${install_seconds} s`;
    return (
      <span className="muted">
        Installed {agent.version}
        {size}
        {took}
      </span>
    );
  }
  const kind = agent.kind;
  return (
    <>
      <button
        type="button"
        className="button-secondary"
        disabled={install.isPending}
        onClick={() => install.mutate(kind)}
      >
        {state === 'failed' ? 'Retry install' : `Install ${agent.version}`}
      </button>
      {state === 'failed' && error && (
        <Notice tone="error" title={`${agent.label} is not installed`}>
          <p>
            <TextWithCode text={error} />
          </p>
        </Notice>
      )}
    </>
  );
}

/**
 * The agent new conversations run: Dockhand's own, or a coding agent that runs inside the sandbox over ACP and
 * reaches the model through Dockhand (it never holds the key). One Save; installs start on their own buttons.
 */
export function CodingAgentsForm({ settings }: { settings: StoredSettings | null }) {
  const agents = useAgents();
  const save = useSaveSettings();
  const stored: AgentKind = settings?.default_agent ?? 'dockhand';
  const [chosen, setChosen] = useState<AgentKind | null>(null);
  const selected = chosen ?? stored;

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ loaded: settings, edits: { default_agent: selected } });
  }

  if (agents.isPending) return <p className="muted">Loading agents…</p>;
  if (agents.isError) {
    return (
      <Notice tone="error" title="Agents could not be loaded">
        <p>
          <TextWithCode text={agents.error.message} />
        </p>
      </Notice>
    );
  }
  return (
    <form onSubmit={submit} aria-labelledby="agents-heading">
      <h2 id="agents-heading">Coding agents</h2>
      <p className="muted">
        The agent runs inside the conversation’s sandbox. Agents other than Dockhand’s reach the model through
        Dockhand with a token of their conversation: your API key never enters the sandbox. Each is installed
        once from the npm registry; after that it starts offline.
      </p>
      <fieldset className="agent-choices">
        <legend>Agent for new conversations</legend>
        {agents.data.agents.map((agent) => (
          <div key={agent.kind} className="agent-choice">
            <label className="field-inline">
              <input
                type="radio"
                name="default-agent"
                value={agent.kind}
                checked={selected === agent.kind}
                onChange={() => setChosen(agent.kind)}
              />
              <strong>{agent.label}</strong>
            </label>
            <span className="field-hint">{agent.needs}</span>
            <InstallState agent={agent} />
          </div>
        ))}
      </fieldset>
      {save.isError && (
        <Notice tone="error" title="The agent was not saved" live>
          <p>
            <TextWithCode text={save.error.message} />
          </p>
        </Notice>
      )}
      <div className="form-actions">
        <button type="submit" disabled={save.isPending || selected === stored}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        {save.isSuccess && selected === stored && (
          <span role="status" className="muted">
            Saved
          </span>
        )}
      </div>
    </form>
  );
}
