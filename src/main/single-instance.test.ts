import { describe, expect, it } from 'vitest';
import { claimSingleInstance, type FocusableWindow, type InstanceApp } from './single-instance';

class FakeApp implements InstanceApp {
  secondInstance: (() => void) | null = null;
  constructor(private readonly lockFree: boolean) {}

  requestSingleInstanceLock(): boolean {
    return this.lockFree;
  }

  on(_event: 'second-instance', listener: () => void): this {
    this.secondInstance = listener;
    return this;
  }
}

class FakeWindow implements FocusableWindow {
  readonly calls: string[] = [];
  constructor(private minimized: boolean) {}
  isMinimized = () => this.minimized;
  restore = () => {
    this.minimized = false;
    this.calls.push('restore');
  };
  show = () => void this.calls.push('show');
  focus = () => void this.calls.push('focus');
}

describe('claimSingleInstance', () => {
  it('tells a second launch to quit without listening for others', () => {
    const app = new FakeApp(false);
    expect(claimSingleInstance(app, () => null)).toBe(false);
    expect(app.secondInstance).toBeNull();
  });

  it('brings the existing window forward when Dockhand is launched again', () => {
    const app = new FakeApp(true);
    const window = new FakeWindow(true);
    expect(claimSingleInstance(app, () => window)).toBe(true);
    app.secondInstance?.();
    expect(window.calls).toEqual(['restore', 'show', 'focus']);
  });

  it('does not restore a window that is not minimized', () => {
    const app = new FakeApp(true);
    const window = new FakeWindow(false);
    claimSingleInstance(app, () => window);
    app.secondInstance?.();
    expect(window.calls).toEqual(['show', 'focus']);
  });

  it('ignores a second launch while no window exists yet', () => {
    const app = new FakeApp(true);
    claimSingleInstance(app, () => null);
    expect(() => app.secondInstance?.()).not.toThrow();
  });
});
