import type { KeyboardEvent } from 'react';

function onMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);
}

/** Ctrl+Enter, or Cmd+Enter on a Mac: sends a multi-line text without leaving the keyboard. */
export function isSubmitShortcut(event: KeyboardEvent): boolean {
  return event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

/** The submit shortcut as this platform writes it. */
export function submitShortcutLabel(): string {
  return onMac() ? '⌘ Enter' : 'Ctrl+Enter';
}

/**
 * Alt plus a letter, by the key's position (`KeyY`): on a Mac, Option changes the character typed, not
 * the key pressed.
 */
export function isAltShortcut(event: globalThis.KeyboardEvent, letter: string): boolean {
  return event.altKey && !event.ctrlKey && !event.metaKey && event.code === `Key${letter.toUpperCase()}`;
}
