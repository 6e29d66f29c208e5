import { describe, expect, it } from 'vitest';
import { statusOf } from './container-state';

describe('statusOf', () => {
  it('maps Docker states to sandbox statuses (api-contract §11)', () => {
    expect(statusOf({ Status: 'created' }).status).toBe('STARTING');
    expect(statusOf({ Status: 'restarting' }).status).toBe('STARTING');
    expect(statusOf({ Status: 'running' }).status).toBe('STARTING');
    expect(statusOf({ Status: 'paused' }).status).toBe('PAUSED');
    expect(statusOf({ Status: 'exited', ExitCode: 137 }).status).toBe('PAUSED');
    expect(statusOf({ Status: 'removing' }).status).toBe('MISSING');
  });

  it('treats an OOM kill and a dead container as ERROR, with the reason', () => {
    expect(statusOf({ Status: 'exited', OOMKilled: true })).toEqual({
      status: 'ERROR',
      error: 'The sandbox ran out of memory and was stopped',
    });
    expect(statusOf({ Status: 'dead', Error: 'driver failed' })).toEqual({
      status: 'ERROR',
      error: 'The container is dead: driver failed',
    });
  });
});
