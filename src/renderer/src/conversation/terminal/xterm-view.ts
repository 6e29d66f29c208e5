import { FitAddon } from '@xterm/addon-fit';
import { Terminal, type ITerminalOptions } from '@xterm/xterm';

const THEME: ITerminalOptions['theme'] = {
  background: '#111418',
  foreground: '#d8dee6',
  cursor: '#d8dee6',
  selectionBackground: '#3a4656',
};

/**
 * xterm writes its theme and cell sizes into `<style>` elements, which the page's `style-src 'self'` refuses.
 * The ones it creates while opening are made inert placeholders (`<template>`) whose text goes into a
 * constructed stylesheet instead, which the policy allows; removing a placeholder drops its sheet.
 */
function openWithinPolicy(terminal: Terminal, parent: HTMLElement): () => void {
  /** Every sheet made here, and those still in use. */
  const owned = new Set<CSSStyleSheet>();
  const sheets = new Set<CSSStyleSheet>();
  const adopt = () => {
    const others = document.adoptedStyleSheets.filter((sheet) => !owned.has(sheet));
    document.adoptedStyleSheets = [...others, ...sheets];
  };
  const original = document.createElement;
  const create = (tag: string, options?: ElementCreationOptions): HTMLElement =>
    Reflect.apply(original, document, [tag, options]) as HTMLElement;
  const createWithinPolicy = (tag: string, options?: ElementCreationOptions): HTMLElement => {
    if (tag.toLowerCase() !== 'style') return create(tag, options);
    const placeholder = create('template');
    const sheet = new CSSStyleSheet();
    let text = '';
    owned.add(sheet);
    sheets.add(sheet);
    adopt();
    Object.defineProperty(placeholder, 'textContent', {
      get: () => text,
      set: (value: string | null) => {
        text = value ?? '';
        sheet.replaceSync(text);
      },
    });
    placeholder.remove = () => {
      sheets.delete(sheet);
      adopt();
      Element.prototype.remove.call(placeholder);
    };
    return placeholder;
  };
  document.createElement = createWithinPolicy as typeof document.createElement;
  try {
    terminal.open(parent);
  } finally {
    document.createElement = original;
  }
  return () => {
    sheets.clear();
    adopt();
  };
}

export interface XtermView {
  terminal: Terminal;
  /** Fits the terminal to its element; returns the new size. */
  fit(): { cols: number; rows: number };
  dispose(): void;
}

/** An xterm in `parent`, sized to it. `readOnly` takes no keyboard input (the agent's commands). */
export function createXtermView(parent: HTMLElement, readOnly: boolean): XtermView {
  const terminal = new Terminal({
    theme: THEME,
    fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
    fontSize: 13,
    scrollback: 5000,
    convertEol: readOnly,
    disableStdin: readOnly,
    cursorBlink: !readOnly,
  });
  const fitAddon = new FitAddon();
  terminal.loadAddon(fitAddon);
  const release = openWithinPolicy(terminal, parent);
  const fit = () => {
    fitAddon.fit();
    return { cols: terminal.cols, rows: terminal.rows };
  };
  fit();
  return {
    terminal,
    fit,
    dispose: () => {
      terminal.dispose();
      release();
    },
  };
}
