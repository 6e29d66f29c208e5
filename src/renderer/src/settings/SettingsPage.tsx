import { useState } from 'react';
import { useSettings } from '../api/settings-queries';
import { settingsHref } from '../routing';
import { Notice } from '../ui/Notice';
import { Tabs, type Tab } from '../ui/Tabs';
import { TextWithCode } from '../ui/TextWithCode';
import { AddSecretForm } from './AddSecretForm';
import { AppearanceForm } from './AppearanceForm';
import { CodingAgentsForm } from './CodingAgentsForm';
import { GitProvidersForm } from './GitProvidersForm';
import { LlmSettingsForm, type LlmFormSection } from './LlmSettingsForm';
import { McpServersForm } from './McpServersForm';
import { SecretList } from './SecretList';
import { UnverifiedTokens } from './UnverifiedTokens';

type SectionKey = 'llm' | 'agent' | 'agents' | 'git' | 'mcp' | 'secrets' | 'sandboxes' | 'appearance';

/** The sections of Settings, one shown at a time, each with its one Save. */
const SECTIONS: readonly Tab<SectionKey>[] = [
  { key: 'llm', label: 'Language model' },
  { key: 'agent', label: 'Agent' },
  { key: 'agents', label: 'Coding agents' },
  { key: 'git', label: 'Git providers' },
  { key: 'mcp', label: 'MCP servers' },
  { key: 'secrets', label: 'Secrets' },
  { key: 'sandboxes', label: 'Sandboxes' },
  { key: 'appearance', label: 'Appearance' },
];

function sectionOf(name: string | null): SectionKey {
  return SECTIONS.find((section) => section.key === name)?.key ?? 'llm';
}

function llmFormSection(section: SectionKey): LlmFormSection | null {
  return section === 'llm' || section === 'agent' || section === 'sandboxes' ? section : null;
}

/** Settings in sections (`#/settings/<section>`); the address follows the chosen tab without a navigation. */
export function SettingsPage({ section: initial }: { section: string | null }) {
  const [section, setSection] = useState(() => sectionOf(initial));
  function choose(key: SectionKey) {
    setSection(key);
    window.history.replaceState(null, '', settingsHref(key));
  }

  const settings = useSettings();
  if (settings.isPending) {
    return (
      <>
        <h1>Settings</h1>
        <p className="muted">Loading settings…</p>
      </>
    );
  }
  if (settings.isError) {
    return (
      <>
        <h1>Settings</h1>
        <Notice tone="error" title="Settings could not be loaded">
          <p>
            <TextWithCode text={settings.error.message} />
          </p>
          <p>
            <button type="button" className="button-secondary" onClick={() => void settings.refetch()}>
              Try again
            </button>
          </p>
        </Notice>
      </>
    );
  }
  return (
    <>
      <h1>Settings</h1>
      <div className="panel settings-panel">
        <Tabs tabs={SECTIONS} selected={section} onSelect={choose} label="Settings sections">
          {/* Always mounted: unsaved edits of one of its sections survive a look at another. */}
          <LlmSettingsForm settings={settings.data} section={llmFormSection(section)} />
          {section === 'agents' && <CodingAgentsForm settings={settings.data} />}
          {section === 'git' && (
            <section aria-labelledby="git-heading">
              <h2 id="git-heading">Git providers</h2>
              <p className="muted">
                A token lets the agent clone and push your repositories, and Home list them. Each token is
                checked with the provider when saved and kept with Dockhand’s secrets.
              </p>
              <UnverifiedTokens providers={settings.data?.provider_tokens_unverified ?? []} />
              <GitProvidersForm stored={settings.data?.provider_tokens_set ?? {}} />
            </section>
          )}
          {section === 'mcp' && <McpServersForm settings={settings.data} />}
          {section === 'secrets' && (
            <section aria-labelledby="secrets-heading">
              <h2 id="secrets-heading">Custom secrets</h2>
              <p className="muted">
                The agent gets each secret as an environment variable of the commands it runs, and sees only
                its name and description. Values are kept with Dockhand’s secrets and never shown again.
              </p>
              <SecretList />
              <AddSecretForm />
            </section>
          )}
          {section === 'appearance' && (
            <section aria-labelledby="appearance-heading">
              <h2 id="appearance-heading">Appearance</h2>
              <AppearanceForm />
            </section>
          )}
        </Tabs>
      </div>
    </>
  );
}
