import { CHOOSE_FOLDER_CHANNEL } from '../preload/bridge';
import { type IpcMainLike, isTrustedSender, type TrustedPage, UntrustedSender } from './connection-ipc';
import type { MainLog } from './main-log';

/** Electron's `dialog.showOpenDialog` as far as a folder pick needs it. */
export type ShowFolderDialog = () => Promise<{ canceled: boolean; filePaths: string[] }>;

/**
 * Answers `dockhand:choose-folder` with the folder the user picks in a native dialog (null when they
 * cancel), for the main window's own page only: the page names no path, options or window, so it can only
 * learn a folder the user chose. Returns the function that stops answering.
 */
export function serveFolderDialog(
  ipc: IpcMainLike,
  options: { trustedPage: () => TrustedPage; showDialog: ShowFolderDialog; log: MainLog },
): () => void {
  ipc.handle(CHOOSE_FOLDER_CHANNEL, async (event) => {
    if (!isTrustedSender(event, options.trustedPage())) {
      options.log.warn(
        { sender: event.sender.id, url: event.senderFrame?.url ?? null },
        'Refused the folder dialog to an untrusted sender',
      );
      throw new UntrustedSender();
    }
    const picked = await options.showDialog();
    return picked.canceled ? null : (picked.filePaths[0] ?? null);
  });
  return () => ipc.removeHandler(CHOOSE_FOLDER_CHANNEL);
}
