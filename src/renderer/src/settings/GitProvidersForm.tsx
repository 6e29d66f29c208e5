import { useState, type FormEvent } from 'react';
import { GIT_PROVIDERS, type GitProvider } from '../../../shared/api/settings';
import { isApiError } from '../api/api-error';
import { useSaveProviderToken } from '../api/git-queries';
import { PROVIDER_LABELS } from '../start/RepositoryPicker';
import { InputField } from '../ui/Field';
import { formErrors } from '../ui/form-errors';
import { FormProblems, SubmitActions } from '../ui/FormFooter';
import { Notice } from '../ui/Notice';

const DEFAULT_HOSTS: Record<GitProvider, string> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
  enterprise_sso: '',
};

const TOKEN_HINTS: Record<GitProvider, string> = {
  github:
    'A personal access token with the repo scope (classic) or read/write access to contents (fine-grained).',
  gitlab: 'A personal access token with the api scope.',
  bitbucket: 'An app password written as username:app_password, or an access token.',
  enterprise_sso: 'A token for your enterprise git host; it is not checked when saved.',
};

function StoredTokens({ stored }: { stored: Record<string, string | null> }) {
  const save = useSaveProviderToken();
  const entries = Object.entries(stored) as [GitProvider, string | null][];
  if (entries.length === 0) return <p className="empty-inline">No git provider connected yet.</p>;
  return (
    <>
      <ul className="secret-list" aria-label="Connected git providers">
        {entries.map(([provider, host]) => (
          <li key={provider} className="secret-row">
            <div className="secret-info">
              <span className="secret-name">{PROVIDER_LABELS[provider]}</span>
              <span className="secret-description">Token set · {host ?? DEFAULT_HOSTS[provider]}</span>
            </div>
            <button
              type="button"
              className="button-secondary"
              disabled={save.isPending}
              onClick={() => save.mutate({ stored, edit: { provider, token: '', host }, remove: true })}
            >
              Remove {PROVIDER_LABELS[provider]} token
            </button>
          </li>
        ))}
      </ul>
      {save.isError && (
        <Notice tone="error" title="The token was not removed" live>
          <p>{save.error.message}</p>
        </Notice>
      )}
    </>
  );
}

/** Tokens for GitHub, GitLab, Bitbucket or an enterprise host, checked by the provider when saved. */
export function GitProvidersForm({ stored }: { stored: Record<string, string | null> }) {
  const [provider, setProvider] = useState<GitProvider>('github');
  const [token, setToken] = useState('');
  const [host, setHost] = useState('');
  const [saved, setSaved] = useState<GitProvider | null>(null);
  const save = useSaveProviderToken();
  const errors = formErrors(save.error, [], {});
  // The provider's answer to the token (401) and a bad host (422) belong at their fields.
  const [missingToken, setMissingToken] = useState(false);
  const tokenError = isApiError(save.error, 401)
    ? save.error.message
    : missingToken
      ? `Enter the ${PROVIDER_LABELS[provider]} token.`
      : undefined;
  const hostIssue = isApiError(save.error, 422)
    ? save.error.issues.find((issue) => issue.field.endsWith('.host'))
    : undefined;
  const hostError = hostIssue
    ? 'Enter a host name, with a port if needed (git.example.com:8443).'
    : undefined;
  const general = tokenError || hostError ? [] : errors.general;

  function reset() {
    setSaved(null);
    setMissingToken(false);
    if (!save.isPending) save.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmedHost = host.trim();
    if (token.trim() === '' && !(provider in stored)) {
      setMissingToken(true);
      return;
    }
    save.mutate(
      { stored, edit: { provider, token: token.trim(), host: trimmedHost === '' ? null : trimmedHost } },
      {
        onSuccess: () => {
          setToken('');
          setSaved(provider);
        },
      },
    );
  }

  return (
    <>
      <StoredTokens stored={stored} />
      <form className="form form-compact" onSubmit={submit} noValidate aria-labelledby="add-token-heading">
        <h3 id="add-token-heading">Add or replace a token</h3>
        <div className="form-row">
          <div className="field">
            <label htmlFor="git-provider">Git provider</label>
            <select
              id="git-provider"
              value={provider}
              onChange={(e) => {
                setProvider(e.target.value as GitProvider);
                reset();
              }}
            >
              {GIT_PROVIDERS.map((p) => (
                <option key={p} value={p}>
                  {PROVIDER_LABELS[p]}
                </option>
              ))}
            </select>
          </div>
          <InputField
            id="git-host"
            label="Host (optional)"
            hint={`Empty means ${DEFAULT_HOSTS[provider] || 'required for Enterprise SSO'}.`}
            error={hostError}
            type="text"
            spellCheck={false}
            autoComplete="off"
            placeholder={DEFAULT_HOSTS[provider]}
            value={host}
            onChange={(e) => {
              setHost(e.target.value);
              reset();
            }}
          />
        </div>
        <InputField
          id="git-token"
          label="Token"
          hint={TOKEN_HINTS[provider]}
          error={tokenError}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(e) => {
            setToken(e.target.value);
            reset();
          }}
        />
        <FormProblems title="The token was not saved" general={general} />
        <SubmitActions
          label="Save token"
          pendingLabel="Checking the token…"
          pending={save.isPending}
          done={saved && <>{PROVIDER_LABELS[saved]} token saved.</>}
        />
      </form>
    </>
  );
}
