export interface FocusableWindow {
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

export interface InstanceApp {
  requestSingleInstanceLock(): boolean;
  on(event: 'second-instance', listener: () => void): unknown;
}

export function bringToFront(window: FocusableWindow): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/**
 * Takes the single-instance lock. False means Dockhand already runs (Electron has told it, and it
 * comes forward), so this launch must quit. Later launches focus the current window.
 */
export function claimSingleInstance(app: InstanceApp, currentWindow: () => FocusableWindow | null): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => {
    const window = currentWindow();
    if (window) bringToFront(window);
  });
  return true;
}
