import type { Microagent, MicroagentInput } from './microagent';

/** One item of `GET /api/conversations/{id}/microagents`. */
export interface MicroagentListItem {
  name: string;
  /** Tasks are listed as knowledge, as OpenHands clients expect. */
  type: 'repo' | 'knowledge';
  content: string;
  triggers: string[];
  inputs: MicroagentInput[];
  tools: string[];
}

export function microagentListing(microagents: Microagent[]): { microagents: MicroagentListItem[] } {
  return {
    microagents: microagents.map(({ name, type, content, triggers, inputs, tools }) => ({
      name,
      type: type === 'repo' ? 'repo' : 'knowledge',
      content,
      triggers,
      inputs,
      tools,
    })),
  };
}
