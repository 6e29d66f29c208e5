import { describe, expect, it } from 'vitest';
import { CHOOSE_FOLDER_CHANNEL } from '../preload/bridge';
import { type InvokeEvent, UntrustedSender } from './connection-ipc';
import { serveFolderDialog } from './folder-dialog-ipc';
import { FakeIpcMain, recordingLog } from '../../test/support/main-fakes';

const MAIN_WINDOW = 3;
const PAGE = { webContentsId: MAIN_WINDOW, origin: 'app://dockhand' };

function event(senderId: number, url: string, parent: unknown = null): InvokeEvent {
  return { sender: { id: senderId }, senderFrame: { url, parent } };
}

function serve(answer: { canceled: boolean; filePaths: string[] }) {
  const ipc = new FakeIpcMain();
  const log = recordingLog();
  let shown = 0;
  const stop = serveFolderDialog(ipc, {
    trustedPage: () => PAGE,
    showDialog: async () => {
      shown++;
      return answer;
    },
    log,
  });
  return { ipc, log, stop, shown: () => shown };
}

describe('serveFolderDialog', () => {
  it('gives the main window the folder the user picked, or null when they cancel', async () => {
    const main = event(MAIN_WINDOW, 'app://dockhand/index.html');
    const picked = serve({ canceled: false, filePaths: ['/home/me/project'] });
    expect(await picked.ipc.invoke(CHOOSE_FOLDER_CHANNEL, main)).toBe('/home/me/project');
    const cancelled = serve({ canceled: true, filePaths: [] });
    expect(await cancelled.ipc.invoke(CHOOSE_FOLDER_CHANNEL, main)).toBeNull();
  });

  it('refuses other windows, sub-frames and other pages without showing a dialog', async () => {
    const { ipc, log, shown } = serve({ canceled: false, filePaths: ['/etc'] });
    for (const from of [
      event(9, 'app://dockhand/index.html'),
      event(MAIN_WINDOW, 'app://dockhand/index.html', { url: 'app://dockhand/' }),
      event(MAIN_WINDOW, 'https://evil.example/'),
    ]) {
      await expect(ipc.invoke(CHOOSE_FOLDER_CHANNEL, from)).rejects.toBeInstanceOf(UntrustedSender);
    }
    expect(shown()).toBe(0);
    expect(log.entries).toHaveLength(3);
  });

  it('stops answering once stopped', async () => {
    const { ipc, stop } = serve({ canceled: true, filePaths: [] });
    stop();
    await expect(ipc.invoke(CHOOSE_FOLDER_CHANNEL, event(MAIN_WINDOW, 'app://dockhand/'))).rejects.toThrow(
      /No handler/,
    );
  });
});
