import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('dockhand', {});
