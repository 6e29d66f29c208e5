import { describe, expect, it } from 'vitest';
import type { V0Event } from '../../../../shared/api/events';
import { agentCommandText } from './agent-commands';

function event(id: number, fields: Partial<V0Event>): V0Event {
  return { id, timestamp: '2026-01-01T00:00:00', source: 'agent', message: '', ...fields } as V0Event;
}

describe('agentCommandText', () => {
  it('shows each command with its output and a failing exit code, with terminal line ends', () => {
    const text = agentCommandText([
      event(0, { action: 'message', args: { content: 'hi' } }),
      event(1, { action: 'run', args: { command: 'ls' } }),
      event(2, {
        observation: 'run',
        cause: 1,
        content: 'a.txt\nb.txt\n[The command completed with exit code 0.]',
        extras: { command: 'ls', metadata: { exit_code: 0 } },
      }),
      event(3, { action: 'run', args: { command: 'false' } }),
      event(4, { observation: 'run', cause: 3, content: '', extras: { metadata: { exit_code: 1 } } }),
    ]);
    expect(text).toBe(
      '\u001b[1;32m$\u001b[0m ls\r\na.txt\r\nb.txt\r\n\r\n' +
        '\u001b[1;32m$\u001b[0m false\r\n\u001b[31m[exit code 1]\u001b[0m\r\n\r\n',
    );
  });

  it('leaves out commands hidden from the model and their output', () => {
    const text = agentCommandText([
      event(0, { action: 'run', args: { command: 'setup', hidden: true } }),
      event(1, { observation: 'run', cause: 0, content: 'secret setup output' }),
    ]);
    expect(text).toBe('');
  });
});
