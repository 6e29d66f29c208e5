import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'dockhand.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';
const listeners = new Set<() => void>();

/** The theme shown for a choice: the system's preference unless light or dark is chosen. */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): 'light' | 'dark' {
  if (choice !== 'system') return choice;
  return systemDark ? 'dark' : 'light';
}

function readChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

function apply(): void {
  const systemDark = window.matchMedia(DARK_QUERY).matches;
  document.documentElement.dataset.theme = resolveTheme(readChoice(), systemDark);
}

/** Applies the chosen theme now and whenever the system's preference changes. */
export function followTheme(): void {
  apply();
  window.matchMedia(DARK_QUERY).addEventListener('change', apply);
}

export function chooseTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Not remembered (storage disabled); it still applies until the window closes.
  }
  apply();
  listeners.forEach((listener) => listener());
}

/** The current choice, for the Settings control. */
export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, readChoice);
}
