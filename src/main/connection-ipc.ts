import { type DockhandConnection, GET_CONNECTION_CHANNEL } from '../preload/bridge';
import type { MainLog } from './main-log';
import { originOf } from './page-origin';

/** The parts of an IpcMainInvokeEvent that identify who asks. */
export interface InvokeEvent {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

export interface TrustedPage {
  /** The main window's webContents id, or null while there is no window. */
  webContentsId: number | null;
  origin: string;
}

/** Only the main window's top frame, showing the app's own page, may ask. */
export function isTrustedSender(event: InvokeEvent, page: TrustedPage): boolean {
  const frame = event.senderFrame;
  return (
    page.webContentsId !== null &&
    event.sender.id === page.webContentsId &&
    frame !== null &&
    frame.parent === null &&
    originOf(frame.url) === page.origin
  );
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEvent) => unknown): void;
  removeHandler(channel: string): void;
}

export class UntrustedSender extends Error {
  constructor() {
    super('This page may not read the Dockhand connection');
  }
}

/**
 * Answers `dockhand:get-connection` with the service URL and the current session key (read per
 * request, so a rotated key is what the page gets). Returns the function that stops answering.
 */
export function serveConnection(
  ipc: IpcMainLike,
  options: {
    trustedPage: () => TrustedPage;
    connection: () => DockhandConnection;
    log: MainLog;
  },
): () => void {
  ipc.handle(GET_CONNECTION_CHANNEL, (event) => {
    if (!isTrustedSender(event, options.trustedPage())) {
      options.log.warn(
        { sender: event.sender.id, url: event.senderFrame?.url ?? null },
        'Refused the connection to an untrusted sender',
      );
      throw new UntrustedSender();
    }
    return options.connection();
  });
  return () => ipc.removeHandler(GET_CONNECTION_CHANNEL);
}
