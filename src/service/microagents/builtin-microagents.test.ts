import { describe, expect, it } from 'vitest';
import { BUILTIN_MICROAGENT_FILES } from './builtin-microagents';
import { parseMicroagent } from './parse-microagent';

describe('built-in microagents', () => {
  const parsed = BUILTIN_MICROAGENT_FILES.map(parseMicroagent);

  it('are the documented six, each a knowledge microagent with its own name among its triggers', () => {
    expect(parsed.map((m) => m.name)).toEqual(['github', 'gitlab', 'bitbucket', 'docker', 'npm', 'security']);
    for (const microagent of parsed) {
      expect(microagent.type).toBe('knowledge');
      expect(microagent.triggers).toContain(microagent.name);
      expect(microagent.source).toBe(`builtin:${microagent.name}.md`);
      expect(microagent.content.length).toBeGreaterThan(200);
    }
  });

  it('name the token variable of their provider', () => {
    const content = (name: string) => parsed.find((m) => m.name === name)?.content;
    expect(content('github')).toContain('$GITHUB_TOKEN');
    expect(content('gitlab')).toContain('$GITLAB_TOKEN');
    expect(content('bitbucket')).toContain('$BITBUCKET_TOKEN');
  });
});
