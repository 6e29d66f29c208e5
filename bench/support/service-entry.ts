// What the benches that measure the service as built take from it (see built-service.ts).
export { createService } from '../../src/service/index';
export { createLogger } from '../../src/service/logger';
export { MemorySecretStore } from '../../src/service/secrets/memory-store';
