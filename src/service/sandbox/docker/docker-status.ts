import Docker from 'dockerode';

export interface DockerAvailability {
  available: boolean;
  /** The engine address Dockhand talks to. */
  endpoint: string;
  /** Why Docker is not usable, with the fix (null when available). */
  error: string | null;
}

export interface DockerStatus {
  check(): Promise<DockerAvailability>;
}

/** Pings the Docker engine that DOCKER_HOST (or the default socket) names, within 3 s. */
export class DockerPing implements DockerStatus {
  constructor(private readonly docker: Docker = new Docker()) {}

  async check(): Promise<DockerAvailability> {
    const options = this.docker.modem as unknown as { socketPath?: string; host?: string; port?: number };
    const endpoint = options.socketPath
      ? `unix://${options.socketPath}`
      : `tcp://${options.host}:${options.port}`;
    try {
      await Promise.race([
        this.docker.ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 3 s')), 3000).unref()),
      ]);
      return { available: true, endpoint, error: null };
    } catch (error) {
      return { available: false, endpoint, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
