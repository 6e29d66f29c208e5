import type { Microagent } from '../../src/service/microagents/microagent';

/** A microagent for tests, repo type unless triggers say otherwise. */
export function microagent(name: string, content: string, triggers: string[] = []): Microagent {
  return {
    name,
    type: triggers.length > 0 ? 'knowledge' : 'repo',
    content,
    triggers,
    inputs: [],
    tools: [],
    source: `/test/${name}.md`,
    mcpStdioServers: [],
  };
}
