import { describe, expect, it } from 'vitest';
import { microagentListing } from './microagent-listing';
import { parseMicroagent } from './parse-microagent';
import { microagent } from '../../../test/support/microagents';

describe('microagentListing', () => {
  it('gives the GET /microagents shape, listing tasks as knowledge', () => {
    const task = parseMicroagent({
      text: '---\ninputs: [{name: A, description: first}]\nmcp_tools: {stdio_servers: [{name: fs, command: npx}]}\n---\nDo ${A}.',
      defaultName: 'do',
      source: '/do.md',
    });
    expect(microagentListing([microagent('repo', 'Rules.'), task])).toEqual({
      microagents: [
        { name: 'repo', type: 'repo', content: 'Rules.', triggers: [], inputs: [], tools: [] },
        {
          name: 'do',
          type: 'knowledge',
          content: task.content,
          triggers: ['/do'],
          inputs: [{ name: 'A', description: 'first' }],
          tools: ['fs'],
        },
      ],
    });
  });
});
