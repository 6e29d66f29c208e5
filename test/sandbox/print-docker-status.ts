// Prints what DockerConnection.check() says for this process's environment (run as another user by tests).
import { DockerConnection } from '../../src/service/sandbox/docker/docker-status';

console.log(JSON.stringify(await new DockerConnection({ env: process.env }).check()));
