import { describe, expect, it } from 'vitest';
import { TASK_TYPES } from '../../../shared/api/conversations';
import { GIT_PROVIDERS } from '../../../shared/api/settings';
import {
  createMicroagentPrompt,
  providerTerms,
  suggestedTaskPrompt,
  UnsupportedProviderError,
  type SuggestedTaskInput,
} from './task-prompts';

const REQUEST_TASKS = ['MERGE_CONFLICTS', 'FAILING_CHECKS', 'UNRESOLVED_COMMENTS'] as const;

function task(task_type: SuggestedTaskInput['task_type']): SuggestedTaskInput {
  return { repo: 'acme/web-app', issue_number: 42, title: 'Login fails on Safari', task_type };
}

describe('providerTerms', () => {
  it('names requests, APIs, tokens and CI per provider', () => {
    expect(providerTerms('github')).toEqual({
      request: 'Pull Request',
      short: 'PR',
      api: 'GitHub API',
      token: 'GITHUB_TOKEN',
      ci: 'GitHub Actions',
    });
    expect(providerTerms('gitlab')).toEqual({
      request: 'Merge Request',
      short: 'MR',
      api: 'GitLab API',
      token: 'GITLAB_TOKEN',
      ci: 'CI pipelines',
    });
    expect(providerTerms('bitbucket')).toEqual({
      request: 'Pull Request',
      short: 'PR',
      api: 'Bitbucket API',
      token: 'BITBUCKET_TOKEN',
      ci: 'Bitbucket Pipelines',
    });
  });

  it('uses the GitHub terms for enterprise_sso', () => {
    expect(providerTerms('enterprise_sso')).toEqual(providerTerms('github'));
  });

  it('throws a typed error for any other provider, or none', () => {
    for (const provider of ['azure_devops', 'toString', '', null, undefined]) {
      expect(() => providerTerms(provider)).toThrow(UnsupportedProviderError);
    }
    expect(() => providerTerms('azure_devops')).toThrow('Unsupported git provider: azure_devops');
  });
});

describe('suggestedTaskPrompt', () => {
  it('FAILING_CHECKS on GitLab speaks of the Merge Request, GITLAB_TOKEN and CI pipelines', () => {
    const prompt = suggestedTaskPrompt(task('FAILING_CHECKS'), 'gitlab');
    expect(prompt).toContain('Merge Request');
    expect(prompt).toContain('`GITLAB_TOKEN`');
    expect(prompt).toContain('GitLab API');
    expect(prompt).toContain('CI pipelines');
    expect(prompt).toContain('sleep 30');
    expect(prompt).not.toMatch(/Pull Request|GitHub|GITHUB_TOKEN/);
  });

  it('begins each request prompt with "You are working on REQ #N in repository R"', () => {
    const expected = {
      github: 'Pull Request (PR)',
      gitlab: 'Merge Request (MR)',
      bitbucket: 'Pull Request (PR)',
      enterprise_sso: 'Pull Request (PR)',
    };
    for (const provider of GIT_PROVIDERS) {
      for (const type of REQUEST_TASKS) {
        expect(suggestedTaskPrompt(task(type), provider)).toMatch(
          new RegExp(
            `^You are working on ${expected[provider].replace(/[()]/g, '\\$&')} #42 in repository acme/web-app`,
          ),
        );
      }
    }
  });

  it('tells each request task what to do', () => {
    expect(suggestedTaskPrompt(task('MERGE_CONFLICTS'), 'github')).toMatch(/merge conflicts[\s\S]*git log/);
    expect(suggestedTaskPrompt(task('FAILING_CHECKS'), 'github')).toMatch(/GitHub Actions[\s\S]*logs/);
    expect(suggestedTaskPrompt(task('UNRESOLVED_COMMENTS'), 'bitbucket')).toMatch(
      /unresolved review comments[\s\S]*summary/,
    );
  });

  it('states OPEN_ISSUE as "Issue #N in repository R: fix it." and asks for a request that references it', () => {
    const prompt = suggestedTaskPrompt(task('OPEN_ISSUE'), 'github');
    expect(prompt).toMatch(/^Issue #42 in repository acme\/web-app: fix it\./);
    expect(prompt).toContain('"Login fails on Safari"');
    expect(prompt).toContain('`GITHUB_TOKEN`');
    expect(prompt).toContain('open a Pull Request (PR) that references issue #42');
  });

  it('fills every placeholder of every template, and keeps text like {{x}} in the title as it is', () => {
    for (const type of TASK_TYPES) {
      const prompt = suggestedTaskPrompt({ ...task(type), title: 'Use {{repo}} and $& here' }, 'gitlab');
      expect(prompt).toContain('"Use {{repo}} and $& here"');
      expect(prompt.replace('{{repo}}', '')).not.toMatch(/\{\{|\}\}/);
    }
  });

  it('refuses an unsupported provider', () => {
    expect(() => suggestedTaskPrompt(task('OPEN_ISSUE'), null)).toThrow(UnsupportedProviderError);
  });
});

describe('createMicroagentPrompt', () => {
  it('states the purpose, the file, the frontmatter, a new branch, the request and finish', () => {
    const prompt = createMicroagentPrompt(
      { repo: 'acme/web-app', title: 'How to run the e2e tests' },
      'gitlab',
    );
    expect(prompt).toMatch(/^Create a microagent for repository acme\/web-app/);
    expect(prompt).toContain('Its purpose: How to run the e2e tests');
    expect(prompt).toContain('`.openhands/microagents/<name>.md`');
    expect(prompt).toMatch(/---\n\s*name: <name>\n\s*type: knowledge/);
    expect(prompt).toContain('new branch whose name is not used yet');
    expect(prompt).toContain('open a Merge Request (MR) with the GitLab API');
    expect(prompt).toContain('`GITLAB_TOKEN`');
    expect(prompt).toContain("MR's URL");
    expect(prompt).not.toMatch(/\{\{|\}\}/);
  });

  it('lets the purpose follow from the repository when no title is given', () => {
    for (const title of [null, undefined, '  ']) {
      expect(createMicroagentPrompt({ repo: 'acme/web-app', title }, 'github')).toContain(
        'Choose its purpose from what you learn about the repository',
      );
    }
  });
});
