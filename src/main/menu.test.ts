import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { HELP_LINKS, type MenuOptions, menuTemplate } from './menu';

function template(overrides: Partial<MenuOptions> = {}) {
  const opened: string[] = [];
  let logsOpened = 0;
  const items = menuTemplate({
    platform: 'linux',
    appName: 'Dockhand',
    isPackaged: true,
    openExternal: (url) => opened.push(url),
    openLogsFolder: () => logsOpened++,
    ...overrides,
  });
  return { items, opened, logsOpened: () => logsOpened };
}

function submenu(item: MenuItemConstructorOptions | undefined): MenuItemConstructorOptions[] {
  if (!Array.isArray(item?.submenu)) throw new Error('no submenu');
  return item.submenu;
}

function click(item: MenuItemConstructorOptions): void {
  (item.click as () => void)();
}

describe('menuTemplate', () => {
  it('has File, Edit, View, Window and Help, and the app menu on macOS only', () => {
    const names = (items: MenuItemConstructorOptions[]) => items.map((i) => i.role ?? i.label);
    expect(names(template().items)).toEqual(['fileMenu', 'editMenu', 'View', 'windowMenu', 'help']);
    expect(names(template({ platform: 'darwin' }).items)).toEqual([
      'appMenu',
      'fileMenu',
      'editMenu',
      'View',
      'windowMenu',
      'help',
    ]);
  });

  it('offers developer tools in development only', () => {
    const roles = (packaged: boolean) =>
      submenu(template({ isPackaged: packaged }).items.find((i) => i.label === 'View')).map((i) => i.role);
    expect(roles(true)).not.toContain('toggleDevTools');
    expect(roles(false)).toContain('toggleDevTools');
    expect(roles(true)).toEqual(expect.arrayContaining(['reload', 'zoomIn', 'zoomOut', 'togglefullscreen']));
  });

  it('opens https documentation externally from Help', () => {
    const { items, opened } = template();
    const help = submenu(items.find((i) => i.role === 'help'));
    for (const link of HELP_LINKS) {
      const item = help.find((i) => i.label === link.label);
      if (!item) throw new Error(`missing ${link.label}`);
      click(item);
    }
    expect(opened).toEqual(HELP_LINKS.map((l) => l.url));
    expect(opened.every((url) => url.startsWith('https://'))).toBe(true);
  });

  it('opens the logs folder from Help', () => {
    const { items, logsOpened } = template();
    const item = submenu(items.find((i) => i.role === 'help')).find((i) => i.label === 'Open Logs Folder');
    if (!item) throw new Error('missing Open Logs Folder');
    click(item);
    expect(logsOpened()).toBe(1);
  });
});
