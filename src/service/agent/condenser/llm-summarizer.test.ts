import { describe, expect, it } from 'vitest';
import { userMessage } from '../agent-events';
import { CONDENSER_MARKER, summaryRequestText } from './llm-summarizer';
import summaryPrompt from './summary-prompt.md?raw';
import { bashCall, memoryLog } from '../../../../test/support/condenser-conversation';

describe('the summary request', () => {
  it('starts the system prompt with the marker and asks for every section', () => {
    expect(summaryPrompt.startsWith(CONDENSER_MARKER)).toBe(true);
    const sections = [
      'USER_CONTEXT',
      'TASK_TRACKING',
      'COMPLETED',
      'PENDING',
      'CURRENT_STATE',
      'CODE_STATE',
      'TESTS',
      'CHANGES',
      'DEPS',
      'VERSION_CONTROL_STATUS',
    ];
    for (const section of sections) expect(summaryPrompt).toContain(`\n${section}: `);
  });

  it('lists the previous summary and each event with its id, each cut to 10,000 characters', () => {
    const log = memoryLog();
    log.append(userMessage('Add a --json flag.'));
    const { action, observation } = bashCall(
      log.append,
      'npm test',
      `${'a'.repeat(6_000)}${'b'.repeat(6_000)}`,
      {
        responseId: 'r',
        callId: 'c',
      },
    );
    const text = summaryRequestText('p'.repeat(10_001), log.events);
    expect(text).toContain(
      `<PREVIOUS_SUMMARY>\n${'p'.repeat(5_000)}\n[... 1 characters cut ...]\n${'p'.repeat(5_000)}\n</PREVIOUS_SUMMARY>`,
    );
    expect(text).toContain('<EVENT id=0 source=user action=message>\nAdd a --json flag.\n</EVENT>');
    expect(text).toContain(
      `<EVENT id=${action.id} source=agent action=run>\n${JSON.stringify(action.args)}\n</EVENT>`,
    );
    expect(text).toContain(
      `<EVENT id=${observation.id} source=agent observation=run>\n${'a'.repeat(5_000)}\n[... 2000 characters cut ...]\n${'b'.repeat(5_000)}\n</EVENT>`,
    );
    expect(summaryRequestText(null, [])).toContain('<PREVIOUS_SUMMARY>\n(none)\n</PREVIOUS_SUMMARY>');
  });
});
