import { describe, expect, it } from 'vitest';
import type { Repository } from '../../../shared/api/git';
import { HttpError } from '../../http/errors';
import type { GitProviderClient } from './git-provider-client';
import {
  isMicroagentFile,
  listMicroagents,
  microagentContent,
  microagentName,
  microagentsDirectory,
} from './microagents';

function repository(fullName: string): Repository {
  return {
    id: '1',
    full_name: fullName,
    git_provider: 'gitlab',
    is_public: true,
    stargazers_count: null,
    link_header: null,
    pushed_at: null,
    owner_type: 'user',
    main_branch: 'main',
  };
}

/** A client over an in-memory file tree; only the file calls are used here. */
function clientWith(files: Record<string, string>): GitProviderClient {
  const unused = () => Promise.reject(new Error('not used'));
  return {
    provider: 'gitlab',
    user: unused,
    repositoryPage: unused,
    allRepositories: unused,
    searchRepositories: unused,
    repository: unused,
    branchPage: unused,
    searchBranches: unused,
    listFiles: async (_repository, directory) =>
      Object.keys(files).filter((path) => path.startsWith(`${directory}/`)),
    fileText: async (_repository, path) => files[path] ?? null,
  };
}

describe('microagent paths', () => {
  it('reads microagents/ in the organisation-level repositories, else .openhands/microagents/', () => {
    expect(microagentsDirectory('acme/.openhands')).toBe('microagents');
    expect(microagentsDirectory('group/sub/openhands-config')).toBe('microagents');
    expect(microagentsDirectory('acme/web')).toBe('.openhands/microagents');
  });

  it('takes Markdown files except README.md', () => {
    expect(isMicroagentFile('.openhands/microagents/a.md')).toBe(true);
    expect(isMicroagentFile('.openhands/microagents/deep/README.md')).toBe(false);
    expect(isMicroagentFile('.openhands/microagents/notes.txt')).toBe(false);
  });

  it('names a microagent by its path below the folder', () => {
    expect(microagentName('.openhands/microagents/tools/lint.md', '.openhands/microagents')).toBe(
      'tools/lint',
    );
    expect(microagentName('.cursorrules', '.openhands/microagents')).toBe('cursorrules');
  });
});

describe('listMicroagents', () => {
  it('lists .cursorrules first, then the microagent files in path order, dated at the listing', async () => {
    const client = clientWith({
      '.cursorrules': 'rules',
      '.openhands/microagents/z.md': 'z',
      '.openhands/microagents/README.md': 'readme',
      '.openhands/microagents/a/b.md': 'b',
    });
    const at = new Date('2025-05-01T00:00:00Z');
    expect(await listMicroagents(client, repository('acme/web'), at)).toEqual([
      { name: 'cursorrules', path: '.cursorrules', created_at: '2025-05-01T00:00:00.000Z' },
      { name: 'a/b', path: '.openhands/microagents/a/b.md', created_at: '2025-05-01T00:00:00.000Z' },
      { name: 'z', path: '.openhands/microagents/z.md', created_at: '2025-05-01T00:00:00.000Z' },
    ]);
  });
});

describe('microagentContent', () => {
  const client = clientWith({
    '.openhands/microagents/task.md': '---\ninputs:\n  - name: ISSUE\n---\nFix ${ISSUE}.',
    '.openhands/microagents/broken.md': '---\ntriggers: [a\n---\nbody',
  });

  it('gives a task microagent its /name trigger, as the agent loads it', async () => {
    const content = await microagentContent(client, repository('acme/web'), '.openhands/microagents/task.md');
    expect(content.triggers).toEqual(['/task']);
    expect(content.content).toMatch(/^Fix \$\{ISSUE\}\./);
    expect(content.git_provider).toBe('gitlab');
  });

  it('answers 404 for a missing file and 502 naming the problem for bad frontmatter', async () => {
    const missing = microagentContent(client, repository('acme/web'), '.openhands/microagents/none.md');
    await expect(missing).rejects.toMatchObject({
      status: 404,
      body: { detail: 'Microagent file .openhands/microagents/none.md not found in acme/web' },
    });
    const broken = await microagentContent(
      client,
      repository('acme/web'),
      '.openhands/microagents/broken.md',
    ).catch((error: unknown) => error);
    expect(broken).toBeInstanceOf(HttpError);
    expect((broken as HttpError).status).toBe(502);
    expect((broken as HttpError).message).toMatch(
      /^Microagent file \.openhands\/microagents\/broken\.md in acme\/web cannot be parsed: the frontmatter is not valid YAML/,
    );
  });
});
