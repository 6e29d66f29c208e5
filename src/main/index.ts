import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session, shell } from 'electron';
import { createService, type DockhandService } from '../service/index';
import { logLevelFromEnvironment } from '../service/config';
import { createLogger } from '../service/logger';
import { logUnhandledRejections } from '../service/unhandled-rejections';
import { dataDirOverride, resolveAppPaths, resolveRendererEntry } from './app-paths';
import { appProtocolHandler, APP_SCHEME_PRIVILEGES } from './app-protocol';
import { serveConnection } from './connection-ipc';
import { serveFolderDialog } from './folder-dialog-ipc';
import { contentSecurityPolicy } from './content-security-policy';
import type { MainLog } from './main-log';
import { openMainWindow } from './main-window';
import { menuTemplate } from './menu';
import { APP_ORIGIN, APP_SCHEME } from './page-origin';
import { restrictPermissions } from './permissions';
import { GracefulQuit } from './quit';
import { waitUntilAlive } from './readiness';
import { claimSingleInstance } from './single-instance';

const QUIT_DEADLINE_MS = 15_000;

// Before `ready`: the data folder (it also scopes the single-instance lock), the app:// scheme, sandboxing.
const overrideDir = dataDirOverride(process.env);
if (overrideDir) app.setPath('userData', overrideDir);
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
app.enableSandbox();

let mainWindow: BrowserWindow | null = null;

if (claimSingleInstance(app, () => mainWindow)) {
  void start();
} else {
  app.quit();
}

async function startService(dataDir: string, log: Logger, pageOrigin: string): Promise<DockhandService> {
  // In development the window loads the renderer dev server, whose origin the service must then allow.
  const devOrigin = pageOrigin === APP_ORIGIN ? {} : { allowedOrigins: [pageOrigin] };
  const service = await createService({ dataDir, port: 0, logger: log, ...devOrigin });
  try {
    await waitUntilAlive(service.url);
    return service;
  } catch (error) {
    await service.close();
    throw error;
  }
}

function failToStart(error: unknown, logsDir: string, log: MainLog): void {
  const message = error instanceof Error ? error.message : String(error);
  log.error({ err: error }, 'Dockhand could not start');
  dialog.showErrorBox('Dockhand could not start', `${message}\n\nThe log is in ${logsDir}.`);
  app.exit(1);
}

async function start(): Promise<void> {
  await app.whenReady();
  const dataDir = app.getPath('userData');
  const logsDir = path.join(dataDir, 'logs');
  const logger = createLogger(dataDir, logLevelFromEnvironment());
  logUnhandledRejections(logger);
  const paths = resolveAppPaths({
    isPackaged: app.isPackaged,
    appPath: app.getAppPath(),
    resourcesPath: process.resourcesPath,
  });
  const entry = resolveRendererEntry(app.isPackaged, process.env);
  logger.info({ ...paths, page: entry.url }, 'Dockhand desktop starting');

  let service: DockhandService;
  try {
    service = await startService(dataDir, logger, entry.origin);
  } catch (error) {
    failToStart(error, logsDir, logger);
    return;
  }

  protocol.handle(
    APP_SCHEME,
    appProtocolHandler({ rendererDir: paths.rendererDir, csp: contentSecurityPolicy(service.url) }),
  );
  restrictPermissions(session.defaultSession, entry.origin, logger);
  const stopServingConnection = serveConnection(ipcMain, {
    trustedPage: () => ({ webContentsId: mainWindow?.webContents.id ?? null, origin: entry.origin }),
    connection: () => ({ baseUrl: service.url, apiKey: service.context.sessionKey.current }),
    log: logger,
  });
  const stopServingFolderDialog = serveFolderDialog(ipcMain, {
    trustedPage: () => ({ webContentsId: mainWindow?.webContents.id ?? null, origin: entry.origin }),
    showDialog: () =>
      mainWindow
        ? dialog.showOpenDialog(mainWindow, { properties: ['openDirectory'] })
        : Promise.resolve({ canceled: true, filePaths: [] }),
    log: logger,
  });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        platform: process.platform,
        appName: app.name,
        isPackaged: app.isPackaged,
        openExternal: (url) => void shell.openExternal(url),
        openLogsFolder: () => void shell.openPath(logsDir),
      }),
    ),
  );

  const quit = new GracefulQuit({
    stopAccepting: () => {
      stopServingConnection();
      stopServingFolderDialog();
    },
    // Sandboxes on quit: the service pauses them as it closes (the default). A setting that keeps
    // them running is passed here once ServiceConfig or close() accepts it.
    closeService: () => service.close(),
    deadline: () => sleep(QUIT_DEADLINE_MS, undefined, { ref: false }),
    exit: (code) => app.exit(code),
    log: logger,
  });
  const openWindow = () => {
    mainWindow = openMainWindow({
      createWindow: (options) => new BrowserWindow(options),
      preloadFile: paths.preloadFile,
      entry,
      openExternal: (url) => shell.openExternal(url),
      log: logger,
    });
    mainWindow.on('closed', () => {
      mainWindow = null;
    });
  };

  app.on('before-quit', (event) => void quit.handleBeforeQuit(event));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (!mainWindow && !quit.quitting) openWindow();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
  openWindow();
}
