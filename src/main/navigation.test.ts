import { describe, expect, it } from 'vitest';
import { type GuardedContents, guardNavigation } from './navigation';
import { preventable, recordingLog } from '../../test/support/main-fakes';

type Listener = (...args: never[]) => void;

/** A WebContents stand-in that records the guards attached to it. */
class FakeContents implements GuardedContents {
  readonly listeners = new Map<string, Listener>();
  windowOpenHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;

  on(event: string, listener: Listener): this {
    this.listeners.set(event, listener);
    return this;
  }

  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.windowOpenHandler = handler;
  }

  navigate(url: string): boolean {
    const event = preventable();
    (this.listeners.get('will-navigate') as (event: unknown, url: string) => void)(event, url);
    return event.prevented;
  }

  openWindow(url: string): { action: 'deny' } {
    if (!this.windowOpenHandler) throw new Error('no window open handler');
    return this.windowOpenHandler({ url });
  }
}

function guarded(pageOrigin = 'app://dockhand') {
  const contents = new FakeContents();
  const opened: string[] = [];
  const log = recordingLog();
  guardNavigation(contents, {
    pageOrigin,
    openExternal: async (url) => {
      opened.push(url);
    },
    log,
  });
  return { contents, opened, log };
}

describe('guardNavigation: will-navigate', () => {
  it('lets the page move within its own origin', () => {
    const { contents, opened } = guarded();
    expect(contents.navigate('app://dockhand/index.html')).toBe(false);
    expect(contents.navigate('app://dockhand/conversations/1#events')).toBe(false);
    expect(opened).toEqual([]);
  });

  it('cancels navigation to other origins, opening https ones in the browser', () => {
    const { contents, opened } = guarded();
    expect(contents.navigate('https://github.com/owner/repo')).toBe(true);
    expect(contents.navigate('http://example.com/')).toBe(true);
    expect(contents.navigate('file:///etc/passwd')).toBe(true);
    expect(contents.navigate('app://dockhand.evil/index.html')).toBe(true);
    expect(contents.navigate('http://127.0.0.1:3000/')).toBe(true);
    expect(opened).toEqual(['https://github.com/owner/repo']);
  });

  it('treats the dev server as the page in development', () => {
    const { contents } = guarded('http://localhost:5173');
    expect(contents.navigate('http://localhost:5173/settings')).toBe(false);
    expect(contents.navigate('app://dockhand/index.html')).toBe(true);
  });
});

describe('guardNavigation: new windows', () => {
  it('denies every new window and opens only https URLs externally', () => {
    const { contents, opened, log } = guarded();
    for (const url of [
      'https://docs.docker.com/',
      'http://example.com/',
      'app://dockhand/index.html',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://server/share',
    ]) {
      expect(contents.openWindow(url)).toEqual({ action: 'deny' });
    }
    expect(opened).toEqual(['https://docs.docker.com/']);
    expect(log.entries.filter((e) => e.message === 'Refused to open a non-https link')).toHaveLength(5);
  });

  it('logs when the browser cannot be opened', async () => {
    const contents = new FakeContents();
    const log = recordingLog();
    guardNavigation(contents, {
      pageOrigin: 'app://dockhand',
      openExternal: () => Promise.reject(new Error('no browser')),
      log,
    });
    contents.openWindow('https://docs.docker.com/');
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.entries.map((e) => e.message)).toContain('Could not open the link in the browser');
  });
});

describe('guardNavigation: webviews', () => {
  it('prevents attaching any webview', () => {
    const { contents } = guarded();
    const event = preventable();
    (contents.listeners.get('will-attach-webview') as (event: unknown) => void)(event);
    expect(event.prevented).toBe(true);
  });
});
