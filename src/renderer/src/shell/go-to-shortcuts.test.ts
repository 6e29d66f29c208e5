import { describe, expect, it } from 'vitest';
import { routeOf, ROUTES } from '../routing';
import { goToTarget } from './go-to-shortcuts';

describe('goToTarget', () => {
  it('names the screen of each second key', () => {
    expect(goToTarget('s')).toBe('sandboxes');
    expect(goToTarget('C')).toBe('conversations');
    expect(goToTarget(',')).toBe('settings');
    expect(goToTarget('x')).toBeNull();
  });

  it('leads to addresses the router knows', () => {
    expect(routeOf(ROUTES.sandboxes)).toEqual({ name: 'sandboxes' });
  });
});
