import type { z } from 'zod';
import type { SuggestedTask } from '../../../shared/api/conversations';
import type { GitProvider } from '../../../shared/api/settings';
import createMicroagentTemplate from './create-microagent.md?raw';
import failingChecksTemplate from './failing-checks.md?raw';
import mergeConflictsTemplate from './merge-conflicts.md?raw';
import openIssueTemplate from './open-issue.md?raw';
import requestPreamble from './request-preamble.md?raw';
import unresolvedCommentsTemplate from './unresolved-comments.md?raw';

/** How a git provider names its review requests, API, token variable and CI (agent-behaviour §6.4). */
export interface ProviderTerms {
  /** "Pull Request" or "Merge Request". */
  request: string;
  /** "PR" or "MR". */
  short: string;
  api: string;
  /** The variable the agent sets, for one command, to the token git's credential helper gives. */
  token: string;
  ci: string;
}

const GITHUB_TERMS: ProviderTerms = {
  request: 'Pull Request',
  short: 'PR',
  api: 'GitHub API',
  token: 'GITHUB_TOKEN',
  ci: 'GitHub Actions',
};

const PROVIDER_TERMS: Record<GitProvider, ProviderTerms> = {
  github: GITHUB_TERMS,
  gitlab: {
    request: 'Merge Request',
    short: 'MR',
    api: 'GitLab API',
    token: 'GITLAB_TOKEN',
    ci: 'CI pipelines',
  },
  bitbucket: {
    request: 'Pull Request',
    short: 'PR',
    api: 'Bitbucket API',
    token: 'BITBUCKET_TOKEN',
    ci: 'Bitbucket Pipelines',
  },
  // A GitHub Enterprise host speaks GitHub's API.
  enterprise_sso: GITHUB_TERMS,
};

/** No prompt wording exists for the provider (or none was resolved); the route answers 400. */
export class UnsupportedProviderError extends Error {
  constructor(readonly provider: string | null | undefined) {
    super(`Unsupported git provider: ${provider ?? 'none'}`);
    this.name = 'UnsupportedProviderError';
  }
}

export function providerTerms(provider: string | null | undefined): ProviderTerms {
  if (provider && Object.hasOwn(PROVIDER_TERMS, provider)) return PROVIDER_TERMS[provider as GitProvider];
  throw new UnsupportedProviderError(provider);
}

export type SuggestedTaskInput = Pick<
  z.infer<typeof SuggestedTask>,
  'repo' | 'issue_number' | 'title' | 'task_type'
>;

const TASK_TEMPLATES: Record<SuggestedTaskInput['task_type'], string> = {
  OPEN_ISSUE: openIssueTemplate,
  MERGE_CONFLICTS: `${requestPreamble}\n${mergeConflictsTemplate}`,
  FAILING_CHECKS: `${requestPreamble}\n${failingChecksTemplate}`,
  UNRESOLVED_COMMENTS: `${requestPreamble}\n${unresolvedCommentsTemplate}`,
};

/** Replaces each `{{name}}`; a placeholder without a value is a bug in the template. */
function fill(template: string, values: Record<string, string>): string {
  return template
    .replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`No value for ${placeholder}`);
      return value;
    })
    .trim();
}

/** The first message of a conversation started from a suggested task (`suggested_task`). */
export function suggestedTaskPrompt(task: SuggestedTaskInput, provider: string | null | undefined): string {
  return fill(TASK_TEMPLATES[task.task_type], {
    ...providerTerms(provider),
    repo: task.repo,
    number: String(task.issue_number),
    title: task.title,
  });
}

/**
 * The text of a `create_microagent` start: used both as the first message and as the conversation
 * instructions. `title` states the microagent's purpose.
 */
export function createMicroagentPrompt(
  request: { repo: string; title?: string | null },
  provider: string | null | undefined,
): string {
  const title = request.title?.trim();
  const purpose = title
    ? `Its purpose: ${title}`
    : 'Choose its purpose from what you learn about the repository, such as how to set it up, build and test it, and the conventions it follows.';
  return fill(createMicroagentTemplate, { ...providerTerms(provider), repo: request.repo, purpose });
}
