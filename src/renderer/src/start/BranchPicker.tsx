import type { Branch, Repository } from '../../../shared/api/git';
import { useBranchPages, useBranchSearch } from '../api/git-queries';
import { Combobox, type ComboboxOption } from '../ui/Combobox';
import { searchResults, useSearchText } from './search-results';

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
  const text = useSearchText(query);
  const pages = useBranchPages(repository.full_name);
  const found = useBranchSearch(repository.full_name, repository.git_provider, text.search);
  const {
    items: branches,
    status,
    loadMore,
  } = searchResults(text, pages, found, {
    listed: pages.data?.pages.flatMap((page) => page.branches) ?? [],
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
