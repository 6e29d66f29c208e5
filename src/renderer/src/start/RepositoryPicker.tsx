import type { Repository } from '../../../shared/api/git';
import type { GitProvider } from '../../../shared/api/settings';
import { useRepositoryPages, useRepositorySearch } from '../api/git-queries';
import { Combobox, type ComboboxOption } from '../ui/Combobox';
import { searchResults, useSearchText } from './search-results';

export const NO_REPOSITORY_LABEL = 'No repository';

export const PROVIDER_LABELS: Record<GitProvider, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
  enterprise_sso: 'Enterprise SSO',
};

interface RepositoryPickerProps {
  /** The providers with a stored token that can list repositories. */
  providers: GitProvider[];
  provider: GitProvider | null;
  onProviderChange: (provider: GitProvider) => void;
  selected: Repository | null;
  onSelect: (repository: Repository | null) => void;
  query: string;
  onQueryChange: (query: string) => void;
}

function repositoryOption(repository: Repository): ComboboxOption<Repository | null> {
  return {
    key: `${repository.git_provider}:${repository.full_name}`,
    value: repository,
    label: repository.full_name,
    detail: repository.is_public ? 'public' : 'private',
  };
}

/** Which repository the agent works on: the provider's list, searched on the provider, or none. */
export function RepositoryPicker({
  providers,
  provider,
  onProviderChange,
  selected,
  onSelect,
  query,
  onQueryChange,
}: RepositoryPickerProps) {
  const text = useSearchText(query);
  const pages = useRepositoryPages(provider);
  const found = useRepositorySearch(provider, text.search);
  const {
    items: repositories,
    status,
    loadMore,
  } = searchResults(text, pages, found, {
    listed: pages.data?.pages.flat() ?? [],
    nameOf: (repository) => repository.full_name,
    noun: { one: 'repository', many: 'repositories' },
    emptyList: 'No repositories on this account yet.',
  });

  const options: ComboboxOption<Repository | null>[] = [
    ...(text.typed
      ? []
      : [{ key: 'none', value: null, label: NO_REPOSITORY_LABEL, detail: 'empty workspace' }]),
    ...repositories.map(repositoryOption),
  ];

  return (
    <div className="repository-picker">
      {providers.length > 1 && (
        <div className="field">
          <label htmlFor="start-provider">Provider</label>
          <select
            id="start-provider"
            value={provider ?? ''}
            onChange={(event) => {
              onProviderChange(event.target.value as GitProvider);
              onSelect(null);
            }}
          >
            {providers.map((p) => (
              <option key={p} value={p}>
                {PROVIDER_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
      )}
      <Combobox
        id="start-repository"
        label="Repository"
        placeholder="Search repositories"
        hint="Type to search by name, or paste a repository URL."
        selectedLabel={selected?.full_name ?? NO_REPOSITORY_LABEL}
        query={query}
        onQueryChange={onQueryChange}
        options={options}
        onSelect={onSelect}
        status={status}
        {...loadMore}
      />
    </div>
  );
}
