import { describe, expect, it } from 'vitest';
import { assignToolNames, nameMap } from './tool-names';

describe('assignToolNames', () => {
  it('keeps names that clash with nothing', () => {
    expect(assignToolNames([{ server: 'fs', tools: ['read_file', 'list'] }], ['execute_bash'])).toEqual([
      { name: 'read_file', server: 'fs', tool: 'read_file' },
      { name: 'list', server: 'fs', tool: 'list' },
    ]);
  });

  it('prefixes names that clash with a built-in or another server', () => {
    const named = assignToolNames(
      [
        { server: 'a', tools: ['search', 'think'] },
        { server: 'b', tools: ['search'] },
      ],
      ['think', 'execute_bash'],
    );
    expect(named.map((n) => n.name)).toEqual(['a_search', 'a_think', 'b_search']);
    expect(nameMap(named)).toEqual({
      a_search: { server: 'a', tool: 'search' },
      a_think: { server: 'a', tool: 'think' },
      b_search: { server: 'b', tool: 'search' },
    });
  });

  it('limits names to [A-Za-z0-9_-]{1,64} and keeps them unique', () => {
    const long = 'x'.repeat(80);
    const named = assignToolNames(
      [
        { server: 'srv', tools: ['do.it', long] },
        { server: 'srv2', tools: [long] },
      ],
      [],
    );
    for (const { name } of named) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(named[0]?.name).toBe('srv_do_it');
    expect(new Set(named.map((n) => n.name)).size).toBe(3);
  });
});
