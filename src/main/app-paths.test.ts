import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirOverride, resolveAppPaths, resolveRendererEntry } from './app-paths';

describe('resolveAppPaths', () => {
  it('uses the project folder in development', () => {
    const paths = resolveAppPaths({
      isPackaged: false,
      appPath: '/home/me/dockhand',
      resourcesPath: '/home/me/dockhand/node_modules/electron/dist/resources',
    });
    expect(paths).toEqual({
      rendererDir: path.join('/home/me/dockhand', 'out', 'renderer'),
      preloadFile: path.join('/home/me/dockhand', 'out', 'preload', 'index.cjs'),
      sandboxDir: path.join('/home/me/dockhand', 'resources', 'sandbox'),
    });
  });

  it('reads code from app.asar and the sandbox build context from the resources folder when packaged', () => {
    const resources = '/opt/Dockhand/resources';
    const paths = resolveAppPaths({
      isPackaged: true,
      appPath: path.join(resources, 'app.asar'),
      resourcesPath: resources,
    });
    expect(paths).toEqual({
      rendererDir: path.join(resources, 'app.asar', 'out', 'renderer'),
      preloadFile: path.join(resources, 'app.asar', 'out', 'preload', 'index.cjs'),
      sandboxDir: path.join(resources, 'sandbox'),
    });
  });
});

describe('resolveRendererEntry', () => {
  it('loads the built renderer from app://dockhand by default', () => {
    expect(resolveRendererEntry(false, {})).toEqual({
      url: 'app://dockhand/index.html',
      origin: 'app://dockhand',
    });
  });

  it('uses the dev server in development', () => {
    const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173' };
    expect(resolveRendererEntry(false, env)).toEqual({
      url: 'http://localhost:5173',
      origin: 'http://localhost:5173',
    });
  });

  it('ignores the dev server variable in the packaged app', () => {
    const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173' };
    expect(resolveRendererEntry(true, env).url).toBe('app://dockhand/index.html');
  });

  it('refuses a dev server that is not http on this machine', () => {
    for (const url of [
      'https://example.com',
      'http://192.168.1.5:5173',
      'file:///tmp/index.html',
      'nonsense',
    ]) {
      expect(resolveRendererEntry(false, { ELECTRON_RENDERER_URL: url }).origin).toBe('app://dockhand');
    }
  });
});

describe('dataDirOverride', () => {
  it('resolves DOCKHAND_DATA_DIR, or is null without it', () => {
    expect(dataDirOverride({ DOCKHAND_DATA_DIR: 'relative/data' })).toBe(path.resolve('relative/data'));
    expect(dataDirOverride({})).toBeNull();
    expect(dataDirOverride({ DOCKHAND_DATA_DIR: '' })).toBeNull();
  });
});
