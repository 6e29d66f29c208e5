import source from './forwarder.cjs?raw';

/** The forwarder's file name in Dockhand's folder of the sandbox (`/opt/dockhand/bin`). */
export const FORWARDER_NAME = 'dockhand-link.cjs';
export const FORWARDER_SCRIPT: string = source;
