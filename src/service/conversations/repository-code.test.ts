import { describe, expect, it } from 'vitest';
import type { NewEvent, V0Event } from '../../shared/api/events';
import { PROCESS_SANDBOX_NOTE, RepositoryConsent, type RepositoryConsentDeps } from './repository-code';

const SETUP = {
  kind: 'setup_script',
  name: '.openhands/setup.sh',
  content: 'make\n',
  command: 'source x',
} as const;

function consent(overrides: Partial<RepositoryConsentDeps> = {}) {
  const events: V0Event[] = [];
  const reports: string[] = [];
  const gate = new RepositoryConsent({
    record: (event: NewEvent) => {
      const stored = { ...event, id: events.length, timestamp: '' } as V0Event;
      events.push(stored);
      return stored;
    },
    settings: { confirmationMode: true, securityAnalyzer: 'rules' },
    isolated: true,
    signal: new AbortController().signal,
    report: (message) => reports.push(message),
    ...overrides,
  });
  const states = () =>
    events.filter((e) => e.observation === 'agent_state_changed').map((e) => e.extras?.agent_state);
  const copies = () => events.filter((e) => e.action).map((e) => e.args?.confirmation_state);
  return { gate, events, reports, states, copies };
}

describe('RepositoryConsent', () => {
  it('without confirmation mode records the code as confirmed and lets it run', async () => {
    const { gate, events } = consent({ settings: { confirmationMode: false, securityAnalyzer: null } });
    expect(await gate.approve(SETUP)).toBe(0);
    expect(events[0]).toMatchObject({
      action: 'run',
      args: { hidden: true, confirmation_state: 'confirmed', repository_code: { kind: 'setup_script' } },
    });
  });

  it('on the process sandbox shows the code and never runs it, even in confirmation mode', async () => {
    const { gate, events, reports } = consent({ isolated: false });
    expect(await gate.approve(SETUP)).toBeNull();
    expect(events.map((e) => e.args?.confirmation_state ?? e.observation)).toEqual(['rejected', 'error']);
    expect(events[1]).toMatchObject({ content: PROCESS_SANDBOX_NOTE, cause: 0 });
    expect(reports[0]).toContain(PROCESS_SANDBOX_NOTE);
  });

  it('in confirmation mode waits for the user: confirmed runs under a new action, rejected does not run', async () => {
    const confirmed = consent();
    const allowed = confirmed.gate.approve(SETUP);
    await new Promise((resolve) => setImmediate(resolve));
    expect(confirmed.gate.pending).toBe(true);
    confirmed.gate.decide('user_confirmed');
    const id = await allowed;
    expect(confirmed.copies()).toEqual(['awaiting_confirmation', 'confirmed']);
    expect(confirmed.events[id as number]?.args?.confirmation_state).toBe('confirmed');
    expect(confirmed.states()).toEqual(['awaiting_user_confirmation', 'user_confirmed', 'loading']);

    const rejected = consent();
    const refused = rejected.gate.approve(SETUP);
    await new Promise((resolve) => setImmediate(resolve));
    rejected.gate.decide('user_rejected', 'no');
    expect(await refused).toBeNull();
    expect(rejected.copies()).toEqual(['awaiting_confirmation', 'rejected']);
    expect(rejected.events.find((e) => e.observation === 'user_rejected')?.content).toMatch(/\nReason: no$/);
  });

  it('asks one question at a time, in order', async () => {
    const { gate, copies } = consent();
    const first = gate.approve(SETUP);
    const second = gate.approve({ ...SETUP, kind: 'git_hook', name: '.openhands/pre-commit.sh' });
    await Promise.resolve();
    expect(copies()).toEqual(['awaiting_confirmation']);
    gate.decide('user_rejected');
    expect(await first).toBeNull();
    await new Promise((resolve) => setImmediate(resolve));
    expect(copies()).toEqual(['awaiting_confirmation', 'rejected', 'awaiting_confirmation']);
    gate.decide('user_confirmed');
    expect(await second).not.toBeNull();
  });

  it('a Stop while waiting ends the wait and nothing runs', async () => {
    const stop = new AbortController();
    const { gate, copies } = consent({ signal: stop.signal });
    const asked = gate.approve(SETUP);
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort();
    expect(await asked).toBeNull();
    expect(copies()).toEqual(['awaiting_confirmation']);
    expect(await gate.approve(SETUP)).toBeNull();
    expect(copies()).toEqual(['awaiting_confirmation']);
  });
});
