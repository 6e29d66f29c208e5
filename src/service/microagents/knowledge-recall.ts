import type { V0Event } from '../../shared/api/events';
import { renderExtraInfo, triggeredKnowledge } from './knowledge-match';
import type { Microagent } from './microagent';
import { recallExtras, type MicroagentKnowledge, type RecallContent } from './recall-extras';

/**
 * The knowledge recalled by a later user message: one EXTRA_INFO per knowledge or task microagent it
 * triggers that is not already in view, or null when there is none (the loop records a `null` observation).
 */
export function recallKnowledge(
  message: string,
  microagents: Microagent[],
  alreadyInView: ReadonlySet<string>,
): RecallContent | null {
  const knowledge = triggeredKnowledge(message, microagents, alreadyInView);
  if (knowledge.length === 0) return null;
  return {
    content: renderExtraInfo(knowledge),
    extras: recallExtras('knowledge', { microagent_knowledge: knowledge }),
  };
}

/** The names of the microagents recalled by the `recall` observations among `events` (the model's view). */
export function knowledgeInView(events: V0Event[]): Set<string> {
  return new Set(
    events
      .filter((event) => event.observation === 'recall')
      .flatMap((event) => (event.extras?.microagent_knowledge ?? []) as MicroagentKnowledge[])
      .map((item) => item.name),
  );
}
