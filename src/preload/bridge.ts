/** The IPC channel the main process answers with the service connection. */
export const GET_CONNECTION_CHANNEL = 'dockhand:get-connection';

/** The IPC channel the main process answers with a folder the user picked in a native dialog. */
export const CHOOSE_FOLDER_CHANNEL = 'dockhand:choose-folder';

/** Where the renderer reaches the service, and the session key it presents (X-Session-API-Key). */
export interface DockhandConnection {
  baseUrl: string;
  apiKey: string;
}

/** What the preload exposes to the page as `window.dockhand`. */
export interface DockhandBridge {
  getConnection(): Promise<DockhandConnection>;
  /** A native folder dialog: the absolute path the user picked, or null when they cancelled. */
  chooseFolder(): Promise<string | null>;
}

/**
 * The bridge: named functions only, each invoking one fixed channel without arguments from the page,
 * so the page can never reach ipcRenderer or choose a channel.
 */
export function createBridge(invoke: (channel: string) => Promise<unknown>): DockhandBridge {
  return {
    getConnection: () => invoke(GET_CONNECTION_CHANNEL) as Promise<DockhandConnection>,
    chooseFolder: () => invoke(CHOOSE_FOLDER_CHANNEL) as Promise<string | null>,
  };
}
