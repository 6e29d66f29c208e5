import { describe, expect, it } from 'vitest';
import { CHOOSE_FOLDER_CHANNEL, createBridge, GET_CONNECTION_CHANNEL } from './bridge';

describe('createBridge', () => {
  it('exposes getConnection and chooseFolder only, as functions', () => {
    const bridge = createBridge(async () => null);
    expect(Object.keys(bridge)).toEqual(['getConnection', 'chooseFolder']);
    expect(typeof bridge.getConnection).toBe('function');
    expect(typeof bridge.chooseFolder).toBe('function');
  });

  it('asks for a folder on its own fixed channel, with no arguments from the page', async () => {
    const calls: unknown[][] = [];
    const bridge = createBridge(async (...args) => {
      calls.push(args);
      return '/home/me/project';
    });
    await expect(bridge.chooseFolder()).resolves.toBe('/home/me/project');
    expect(calls).toEqual([[CHOOSE_FOLDER_CHANNEL]]);
  });

  it('invokes the fixed channel with no arguments from the page', async () => {
    const calls: unknown[][] = [];
    const bridge = createBridge(async (...args) => {
      calls.push(args);
      return { baseUrl: 'http://127.0.0.1:4000', apiKey: 'k' };
    });
    await expect(bridge.getConnection()).resolves.toEqual({ baseUrl: 'http://127.0.0.1:4000', apiKey: 'k' });
    expect(calls).toEqual([[GET_CONNECTION_CHANNEL]]);
  });

  it('passes a refusal from the main process on to the page', async () => {
    const bridge = createBridge(() =>
      Promise.reject(new Error('This page may not read the Dockhand connection')),
    );
    await expect(bridge.getConnection()).rejects.toThrow('may not read');
  });
});
