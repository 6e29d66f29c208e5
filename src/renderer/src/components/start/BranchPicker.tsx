import type { Branch, Repository } from '../../../../shared/api/git';
import { useBranchPages, useBranchSearch } from '../../api/git-queries';
import { useDebouncedValue } from '../../useDebouncedValue';
import { Combobox, type ComboboxOption } from '../Combobox';
import { searchResults } from './search-results';

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
  const {
    items: branches,
    status,
    loadMore,
  } = searchResults({
    typed,
    search,
    listed,
    pages,
    found,
    nameOf: (branch) => branch.name,
    noun: { one: 'branch', many: 'branches' },
    emptyList: 'This repository has no branches yet.',
  });

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
      {...loadMore}
    />
  );
}
