import { describe, expect, it } from 'vitest';
import { MISSING_INPUTS_SENTENCE, parseMicroagent, plainRepoMicroagent } from './parse-microagent';

const parse = (text: string, defaultName = 'dir/file') =>
  parseMicroagent({ text, defaultName, source: '/x.md' });

describe('parseMicroagent', () => {
  it('makes a file without triggers or inputs a repo microagent named after its path', () => {
    expect(parse('Run `make test` before committing.\n')).toEqual({
      name: 'dir/file',
      type: 'repo',
      content: 'Run `make test` before committing.',
      triggers: [],
      inputs: [],
      tools: [],
      source: '/x.md',
      mcpStdioServers: [],
    });
  });

  it('makes a file with triggers a knowledge microagent, whatever type it declares', () => {
    const microagent = parse(
      '---\nname: kafka\ntype: repo\nversion: 1.0\nagent: CodeActAgent\ntriggers:\n  - Kafka\n  - topic\n---\nUse the admin client.',
    );
    expect(microagent).toMatchObject({
      name: 'kafka',
      type: 'knowledge',
      triggers: ['Kafka', 'topic'],
      content: 'Use the admin client.',
    });
  });

  it('makes a file with inputs a task recalled by /<name>, keeping ${var} placeholders', () => {
    const microagent = parse(
      [
        '---',
        'name: release',
        'type: task',
        'inputs:',
        '  - name: VERSION',
        '    description: The version to release',
        '  - name: NOTES',
        '---',
        'Tag ${VERSION} and write ${NOTES} into CHANGELOG.md.',
      ].join('\n'),
    );
    expect(microagent).toEqual({
      name: 'release',
      type: 'task',
      content: `Tag \${VERSION} and write \${NOTES} into CHANGELOG.md.\n\n${MISSING_INPUTS_SENTENCE}`,
      triggers: ['/release'],
      inputs: [
        { name: 'VERSION', description: 'The version to release' },
        { name: 'NOTES', description: '' },
      ],
      tools: [],
      source: '/x.md',
      mcpStdioServers: [],
    });
    expect(MISSING_INPUTS_SENTENCE).toBe(
      "If the user didn't provide any of these variables, ask the user to provide them first.",
    );
  });

  it('keeps a task its own triggers and adds /<name> only once', () => {
    const withCommand = parse(
      '---\ntriggers: [ship it, /dir/file]\ninputs: [{name: A, description: a}]\n---\nx',
    );
    expect(withCommand.triggers).toEqual(['ship it', '/dir/file']);
    const without = parse('---\ntriggers: [ship it]\ninputs: [{name: A, description: a}]\n---\nx');
    expect(without.triggers).toEqual(['ship it', '/dir/file']);
  });

  it('reads MCP stdio servers, listing their names as tools', () => {
    const microagent = parse(
      '---\nmcp_tools:\n  stdio_servers:\n    - name: fetch\n      command: uvx\n      args: [mcp-server-fetch]\n---\nFetch pages.',
    );
    expect(microagent.tools).toEqual(['fetch']);
    expect(microagent.mcpStdioServers).toEqual([
      { name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: {} },
    ]);
  });

  it('treats empty keys as absent', () => {
    expect(parse('---\nname:\ntriggers:\ninputs:\n---\nx')).toMatchObject({ name: 'dir/file', type: 'repo' });
  });

  it.each([
    ['triggers: docker', 'triggers: Invalid input: expected array, received string'],
    ['triggers: [""]', 'triggers.0: Too small: expected string to have >=1 characters'],
    ['type: skill', 'type: Invalid option: expected one of "repo"|"knowledge"|"task"'],
    ['inputs: [{description: x}]', 'inputs.0.name: Invalid input: expected string, received undefined'],
    ['name: [a]', 'name: Invalid input: expected string, received array'],
    [
      'mcp_tools: {stdio_servers: [{name: x}]}',
      'mcp_tools.stdio_servers.0.command: Invalid input: expected string, received undefined',
    ],
  ])('rejects %s', (line, message) => {
    expect(() => parse(`---\n${line}\n---\nx`)).toThrow(message);
  });
});

describe('plainRepoMicroagent', () => {
  it('takes the whole text, frontmatter-like lines included, as always-on content', () => {
    expect(plainRepoMicroagent('cursorrules', '---\nnot: parsed\n---\nRules\n', '/r/.cursorrules')).toEqual({
      name: 'cursorrules',
      type: 'repo',
      content: '---\nnot: parsed\n---\nRules',
      triggers: [],
      inputs: [],
      tools: [],
      source: '/r/.cursorrules',
      mcpStdioServers: [],
    });
  });
});
