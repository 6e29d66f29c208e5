import type { Microagent } from './microagent';
import type { MicroagentKnowledge } from './recall-extras';

/**
 * The knowledge and task microagents a message triggers: a trigger matches as a case-insensitive substring,
 * and the first matching trigger is reported. Microagents named in `alreadyInView` are left out.
 */
export function triggeredKnowledge(
  message: string,
  microagents: Microagent[],
  alreadyInView: ReadonlySet<string>,
): MicroagentKnowledge[] {
  const text = message.toLowerCase();
  return microagents.flatMap((microagent) => {
    if (microagent.type === 'repo' || alreadyInView.has(microagent.name)) return [];
    const trigger = microagent.triggers.find((candidate) => text.includes(candidate.toLowerCase()));
    return trigger === undefined ? [] : [{ name: microagent.name, trigger, content: microagent.content }];
  });
}

/** One `<EXTRA_INFO>` block per recalled microagent. */
export function renderExtraInfo(knowledge: MicroagentKnowledge[]): string {
  return knowledge
    .map(
      (item) =>
        `<EXTRA_INFO>\nThe following was added because the message mentions "${item.trigger}". ` +
        `It may be irrelevant to the request.\n\n${item.content}\n</EXTRA_INFO>`,
    )
    .join('\n\n');
}
