import Docker from 'dockerode';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgeInView, recallKnowledge } from '../../src/service/microagents/knowledge-recall';
import { loadMicroagents, type LoadedMicroagents } from '../../src/service/microagents/load-microagents';
import { renderWorkspaceContext } from '../../src/service/microagents/workspace-context';
import { dockerExec } from '../../src/service/sandbox/docker/docker-exec';
import { DockerSandboxFiles } from '../../src/service/sandbox/files/docker-files';
import { dockerUnavailableReason, removeContainer, startTestContainer } from '../support/test-sandboxes';

const docker = new Docker();
const unavailable = await dockerUnavailableReason(docker);
if (unavailable) console.warn(`Skipping the microagent loading tests: ${unavailable}`);

const REPO = '/workspace/project/shop';
const MICROAGENTS = `${REPO}/.openhands/microagents`;

/** The repository layout written into the sandbox: path below REPO -> text. */
const REPO_FILES: Record<string, string> = {
  '.openhands/microagents/repo.md': 'Run `make check` before every commit.\n',
  '.openhands/microagents/README.md': 'How to write microagents for this repository.\n',
  '.openhands/microagents/knowledge/kafka.md':
    '---\nname: kafka\ntriggers:\n  - Kafka\n  - consumer group\n---\nTopics are created by the migrations in db/kafka.\n',
  '.openhands/microagents/tasks/release.md': [
    '---',
    'name: release',
    'inputs:',
    '  - name: VERSION',
    '    description: The version to release, e.g. 2.1.0',
    '---',
    'Bump the version to ${VERSION}, update CHANGELOG.md and tag v${VERSION}.',
    '',
  ].join('\n'),
  '.openhands/microagents/broken.md': '---\ntriggers: [unclosed\n---\nNever loaded.\n',
  '.openhands/microagents/docker.md':
    '---\ntriggers: [docker]\n---\nThis repository builds with `make image`.\n',
  'AGENTS.md': 'Write tests with vitest.\n',
  'agents.md': 'Shadowed by AGENTS.md.\n',
  '.cursorrules': 'Prefer small functions.\n',
  'docs/shared-rules.md': 'Keep the API backwards compatible.\n',
};

describe.skipIf(unavailable !== null)('microagents loaded from a repository in a Docker sandbox', () => {
  let container: Docker.Container;
  let userDir: string;
  let loaded: LoadedMicroagents;

  beforeAll(async () => {
    userDir = await mkdtemp(join(tmpdir(), 'dockhand-user-microagents-'));
    await mkdir(join(userDir, 'personal'));
    await writeFile(join(userDir, 'personal/style.md'), 'Answer briefly.\n');
    await writeFile(join(userDir, 'repo.md'), 'Replaced by the repository.\n');

    container = await startTestContainer(docker, 'microagents');
    const made = await dockerExec(container, ['sh', '-c', `mkdir -p ${REPO} && chown dockhand: ${REPO}`]);
    if (made.exitCode !== 0) throw new Error(made.stderr);
    const files = new DockerSandboxFiles(container);
    for (const [path, text] of Object.entries(REPO_FILES)) await files.write(`${REPO}/${path}`, text);
    const linked = await dockerExec(
      container,
      ['ln', '-s', '../../docs/shared-rules.md', `${MICROAGENTS}/shared.md`],
      { user: 'dockhand' },
    );
    if (linked.exitCode !== 0) throw new Error(linked.stderr);

    loaded = await loadMicroagents({ files, repoDir: REPO, userDirs: [userDir, join(userDir, 'missing')] });
  });

  afterAll(async () => {
    if (container) await removeContainer(container);
    if (userDir) await rm(userDir, { recursive: true, force: true });
  });

  it('loads every source in order and skips the broken file with a warning naming it', () => {
    expect(loaded.warnings).toEqual([
      expect.stringMatching(
        new RegExp(`^Skipped microagent ${MICROAGENTS}/broken\\.md: the frontmatter is not valid YAML: `),
      ),
    ]);
    expect(loaded.microagents.map(({ name, type, source }) => [name, type, source])).toEqual([
      ['github', 'knowledge', 'builtin:github.md'],
      ['gitlab', 'knowledge', 'builtin:gitlab.md'],
      ['bitbucket', 'knowledge', 'builtin:bitbucket.md'],
      ['npm', 'knowledge', 'builtin:npm.md'],
      ['security', 'knowledge', 'builtin:security.md'],
      ['personal/style', 'repo', join(userDir, 'personal/style.md')],
      ['docker', 'knowledge', `${MICROAGENTS}/docker.md`],
      ['kafka', 'knowledge', `${MICROAGENTS}/knowledge/kafka.md`],
      ['repo', 'repo', `${MICROAGENTS}/repo.md`],
      ['shared', 'repo', `${MICROAGENTS}/shared.md`],
      ['release', 'task', `${MICROAGENTS}/tasks/release.md`],
      ['agents', 'repo', `${REPO}/AGENTS.md`],
      ['cursorrules', 'repo', `${REPO}/.cursorrules`],
    ]);
  });

  it('reads triggers, inputs and contents', () => {
    const byName = new Map(loaded.microagents.map((m) => [m.name, m]));
    expect(byName.get('kafka')).toMatchObject({
      triggers: ['Kafka', 'consumer group'],
      content: 'Topics are created by the migrations in db/kafka.',
    });
    expect(byName.get('release')).toMatchObject({
      triggers: ['/release'],
      inputs: [{ name: 'VERSION', description: 'The version to release, e.g. 2.1.0' }],
      content:
        'Bump the version to ${VERSION}, update CHANGELOG.md and tag v${VERSION}.\n\n' +
        "If the user didn't provide any of these variables, ask the user to provide them first.",
    });
    expect(byName.get('shared')?.content).toBe('Keep the API backwards compatible.');
    expect(byName.get('docker')?.content).toBe('This repository builds with `make image`.');
  });

  it('renders the workspace context and recalls knowledge on later messages', () => {
    const context = renderWorkspaceContext({
      repository: { name: 'acme/shop', directory: REPO, branch: 'dockhand-workspace-0a1b2c3d' },
      microagents: loaded.microagents,
      workingDir: '/workspace/project',
      appPorts: [{ port: 8011, url: 'http://localhost:8011' }],
      setupNote: null,
      now: new Date('2026-01-02T03:04:05Z'),
      customSecrets: [],
      conversationInstructions: null,
      firstMessage: 'Why does the kafka consumer lag?',
    });
    expect(context.extras.repo_instructions).toBe(
      [
        'Answer briefly.',
        'Run `make check` before every commit.',
        'Keep the API backwards compatible.',
        'Write tests with vitest.',
        'Prefer small functions.',
      ].join('\n\n'),
    );
    expect(context.extras.microagent_knowledge.map((k) => [k.name, k.trigger])).toEqual([['kafka', 'Kafka']]);
    expect(context.content).toContain('the user opens http://localhost:8011');

    const recallEvent = {
      id: 2,
      timestamp: '2026-01-02T03:04:05Z',
      source: 'environment' as const,
      message: '',
      observation: 'recall',
      content: context.content,
      extras: context.extras,
    };
    const inView = knowledgeInView([recallEvent]);
    const later = recallKnowledge(
      'Now /release 2.1.0 and check the Kafka topics',
      loaded.microagents,
      inView,
    );
    expect(later?.extras.microagent_knowledge.map((k) => k.name)).toEqual(['release']);
    expect(recallKnowledge('kafka again', loaded.microagents, inView)).toBeNull();
  });
});
