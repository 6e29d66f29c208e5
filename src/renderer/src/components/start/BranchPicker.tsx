import type { Branch, Repository } from '../../../../shared/api/git';
import { useBranchPages, useBranchSearch } from '../../api/git-queries';
import { useDebouncedValue } from '../../useDebouncedValue';
import { Combobox, type ComboboxOption } from '../Combobox';

const SEARCH_DELAY_MS = 250;

interface BranchPickerProps {
  repository: Repository;
  selected: string | null;
  onSelect: (branch: string) => void;
  query: string;
  onQueryChange: (query: string) => void;
}

function branchOption(branch: Branch, defaultBranch: string | null): ComboboxOption<string> {
  const notes = [branch.name === defaultBranch ? 'default' : null, branch.protected ? 'protected' : null];
  const detail = notes.filter(Boolean).join(', ');
  return { key: branch.name, value: branch.name, label: branch.name, ...(detail ? { detail } : {}) };
}

/** The branch to clone; the repository's default branch until another is chosen. */
export function BranchPicker({ repository, selected, onSelect, query, onQueryChange }: BranchPickerProps) {
  const typed = query.trim();
  const search = useDebouncedValue(typed, SEARCH_DELAY_MS);
  const pages = useBranchPages(repository.full_name);
  const found = useBranchSearch(repository.full_name, repository.git_provider, search);
  const listed = pages.data?.pages.flatMap((page) => page.branches) ?? [];
  const answered = found.data !== undefined && !found.isPlaceholderData && search === typed;
  // Until the provider answers the search, the branches already loaded that match stand in for its results.
  const branches = !typed
    ? listed
    : answered
      ? (found.data ?? [])
      : listed.filter((branch) => branch.name.toLowerCase().includes(typed.toLowerCase()));

  let status: string | null = null;
  const failed = typed ? found.error : pages.error;
  if (failed) status = `Branches could not be loaded: ${failed.message}`;
  else if (typed && !answered) status = `Searching for “${typed}”…`;
  else if (!typed && pages.isPending) status = 'Loading branches…';
  else if (branches.length === 0)
    status = typed ? `No branch matches “${typed}”.` : 'This repository has no branches yet.';

  return (
    <Combobox
      id="start-branch"
      label="Branch"
      placeholder="Search branches"
      selectedLabel={selected ?? ''}
      query={query}
      onQueryChange={onQueryChange}
      options={branches.map((branch) => branchOption(branch, repository.main_branch))}
      onSelect={onSelect}
      status={status}
      {...(!typed && pages.hasNextPage
        ? {
            onLoadMore: () => void pages.fetchNextPage(),
            loadMoreLabel: pages.isFetchingNextPage ? 'Loading more…' : 'Load more branches',
          }
        : {})}
    />
  );
}
