import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge';

contextBridge.exposeInMainWorld(
  'dockhand',
  createBridge((channel) => ipcRenderer.invoke(channel)),
);
