import { describe, expect, it } from 'vitest';
import { GET_CONNECTION_CHANNEL } from '../preload/bridge';
import { type InvokeEvent, isTrustedSender, serveConnection, UntrustedSender } from './connection-ipc';
import { FakeIpcMain, recordingLog } from '../../test/support/main-fakes';

const MAIN_WINDOW = 7;
const PAGE = { webContentsId: MAIN_WINDOW, origin: 'app://dockhand' };

function event(senderId: number, url: string | null, parent: unknown = null): InvokeEvent {
  return { sender: { id: senderId }, senderFrame: url === null ? null : { url, parent } };
}

describe('isTrustedSender', () => {
  it('accepts the main window top frame on the app page', () => {
    expect(isTrustedSender(event(MAIN_WINDOW, 'app://dockhand/index.html'), PAGE)).toBe(true);
  });

  it('refuses other windows, sub-frames, other origins and destroyed frames', () => {
    expect(isTrustedSender(event(8, 'app://dockhand/index.html'), PAGE)).toBe(false);
    expect(
      isTrustedSender(event(MAIN_WINDOW, 'app://dockhand/index.html', { url: 'app://dockhand/' }), PAGE),
    ).toBe(false);
    expect(isTrustedSender(event(MAIN_WINDOW, 'https://evil.example/'), PAGE)).toBe(false);
    expect(isTrustedSender(event(MAIN_WINDOW, 'app://dockhand.evil/index.html'), PAGE)).toBe(false);
    expect(isTrustedSender(event(MAIN_WINDOW, 'file:///tmp/index.html'), PAGE)).toBe(false);
    expect(isTrustedSender(event(MAIN_WINDOW, null), PAGE)).toBe(false);
  });

  it('refuses everyone while there is no main window', () => {
    expect(
      isTrustedSender(event(MAIN_WINDOW, 'app://dockhand/index.html'), { ...PAGE, webContentsId: null }),
    ).toBe(false);
  });
});

describe('serveConnection', () => {
  function serve() {
    const ipc = new FakeIpcMain();
    const log = recordingLog();
    let apiKey = 'key-1';
    const stop = serveConnection(ipc, {
      trustedPage: () => PAGE,
      connection: () => ({ baseUrl: 'http://127.0.0.1:4567', apiKey }),
      log,
    });
    return { ipc, log, stop, rotate: (next: string) => (apiKey = next) };
  }

  it('gives the main window the service URL and the current key', async () => {
    const { ipc, rotate } = serve();
    const main = event(MAIN_WINDOW, 'app://dockhand/index.html');
    expect(await ipc.invoke(GET_CONNECTION_CHANNEL, main)).toEqual({
      baseUrl: 'http://127.0.0.1:4567',
      apiKey: 'key-1',
    });
    rotate('key-2');
    expect(await ipc.invoke(GET_CONNECTION_CHANNEL, main)).toMatchObject({ apiKey: 'key-2' });
  });

  it('refuses any other sender, without the key in the error or the log', async () => {
    const { ipc, log } = serve();
    const rejection = ipc.invoke(GET_CONNECTION_CHANNEL, event(MAIN_WINDOW, 'https://evil.example/'));
    await expect(rejection).rejects.toBeInstanceOf(UntrustedSender);
    await expect(rejection).rejects.not.toThrow(/key-1/);
    expect(log.entries).toHaveLength(1);
    expect(JSON.stringify(log.entries)).not.toContain('key-1');
  });

  it('stops answering once stopped', async () => {
    const { ipc, stop } = serve();
    stop();
    await expect(ipc.invoke(GET_CONNECTION_CHANNEL, event(MAIN_WINDOW, 'app://dockhand/'))).rejects.toThrow(
      /No handler/,
    );
  });
});
