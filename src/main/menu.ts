import type { MenuItemConstructorOptions } from 'electron';

export const HELP_LINKS = [
  { label: 'OpenHands API Documentation', url: 'https://docs.all-hands.dev' },
  { label: 'Install Docker Engine', url: 'https://docs.docker.com/engine/install/' },
] as const;

export interface MenuOptions {
  platform: NodeJS.Platform;
  appName: string;
  /** Developer tools are offered in development only. */
  isPackaged: boolean;
  openExternal(url: string): void;
  openLogsFolder(): void;
}

/** The application menu: app (macOS), File, Edit, View, Window and Help, built from standard roles. */
export function menuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const appMenu: MenuItemConstructorOptions[] =
    options.platform === 'darwin' ? [{ label: options.appName, role: 'appMenu' }] : [];
  return [
    ...appMenu,
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'forceReload' },
        ...(options.isPackaged ? [] : [{ role: 'toggleDevTools' } as const]),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        ...HELP_LINKS.map(({ label, url }) => ({ label, click: () => options.openExternal(url) })),
        { type: 'separator' },
        { label: 'Open Logs Folder', click: () => options.openLogsFolder() },
      ],
    },
  ];
}
