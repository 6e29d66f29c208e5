import Docker from 'dockerode';
import { HttpError } from '../../http/errors';
import {
  apiOlderThan,
  type DockerCause,
  type DockerDiagnosis,
  diagnoseConnectionError,
  diagnoseMisconfiguration,
  diagnoseOldEngine,
  machineFacts,
  type MachineFacts,
} from './docker-diagnosis';
import { type DockerEndpoint, machineEnvironment, resolveDockerEndpoint } from './docker-endpoint';

const CHECK_TIMEOUT_MS = 3000;

function timeout(): AbortSignal {
  return AbortSignal.timeout(CHECK_TIMEOUT_MS);
}

/** dockerode's ping and version take an abort signal, which its type definitions leave out. */
function withSignal<T>(call: unknown): (options: { abortSignal: AbortSignal }) => Promise<T> {
  return call as (options: { abortSignal: AbortSignal }) => Promise<T>;
}

export interface DockerAvailability {
  available: boolean;
  /** The engine address Dockhand talks to. */
  endpoint: string;
  /** Why Docker is not usable (null when available). */
  error: string | null;
  /** The named cause (null when available). */
  cause: DockerCause | null;
  /** What the user can do about it (null when available). */
  fix: string | null;
  /** The engine's API version (null when it could not be asked). */
  api_version: string | null;
}

export interface DockerStatus {
  check(): Promise<DockerAvailability>;
}

/** Answers 503 `{"detail":"Docker is not available: <reason>"}`. */
export class DockerUnavailable extends HttpError {
  constructor(readonly diagnosis: DockerDiagnosis) {
    super(503, { detail: `Docker is not available: ${reasonText(diagnosis)}` });
  }
}

/** "<message>. <fix>", the reason shown to users. */
export function reasonText(diagnosis: DockerDiagnosis): string {
  return `${diagnosis.message}. ${diagnosis.fix}`;
}

export interface DockerConnectionOptions {
  /** The service's environment, as config.ts read it: the endpoint and the facts come from it unless given. */
  env: NodeJS.ProcessEnv;
  endpoint?: DockerEndpoint;
  facts?: MachineFacts;
}

/**
 * The Docker engine Dockhand uses: its address (resolved as the docker CLI does), a dockerode client for it,
 * and a check that names why it is not usable.
 */
export class DockerConnection implements DockerStatus {
  readonly endpoint: DockerEndpoint;
  private readonly docker: Docker | null;
  private readonly setupProblem: DockerDiagnosis | null;
  private readonly facts: MachineFacts;
  private version: Docker.DockerVersion | null = null;

  constructor(options: DockerConnectionOptions) {
    this.facts = options.facts ?? machineFacts(options.env);
    this.endpoint = options.endpoint ?? resolveDockerEndpoint(machineEnvironment(options.env));
    let docker: Docker | null = null;
    let problem = this.endpoint.problem;
    if (this.endpoint.options) {
      try {
        docker = new Docker(this.endpoint.options);
      } catch (error) {
        // dockerode also parses DOCKER_HOST itself and throws on an address it cannot read.
        problem = error instanceof Error ? error.message : String(error);
      }
    }
    this.docker = docker;
    this.setupProblem = problem ? diagnoseMisconfiguration(this.endpoint, problem) : null;
  }

  /** The client; only use it after `check()`/`require()` said the engine is available. */
  get client(): Docker {
    if (!this.docker)
      throw new DockerUnavailable(this.setupProblem ?? diagnoseMisconfiguration(this.endpoint, 'no client'));
    return this.docker;
  }

  async check(): Promise<DockerAvailability> {
    const diagnosis = await this.diagnose();
    if ('apiVersion' in diagnosis) {
      return {
        available: true,
        endpoint: this.endpoint.url,
        error: null,
        cause: null,
        fix: null,
        api_version: diagnosis.apiVersion,
      };
    }
    return {
      available: false,
      endpoint: this.endpoint.url,
      error: diagnosis.message,
      cause: diagnosis.cause,
      fix: diagnosis.fix,
      api_version: null,
    };
  }

  /** The client when the engine answers, else DockerUnavailable (503). */
  async require(): Promise<Docker> {
    const diagnosis = await this.diagnose();
    if (!('apiVersion' in diagnosis)) throw new DockerUnavailable(diagnosis);
    return this.client;
  }

  /** The engine's API version, or why it cannot be used. */
  async diagnose(): Promise<{ apiVersion: string } | DockerDiagnosis> {
    if (this.setupProblem || !this.docker)
      return this.setupProblem ?? diagnoseMisconfiguration(this.endpoint, 'no client');
    try {
      await withSignal<unknown>(this.docker.ping.bind(this.docker))({ abortSignal: timeout() });
      // The version is asked once per connection: an engine is upgraded only by restarting it.
      this.version ??= await withSignal<Docker.DockerVersion>(this.docker.version.bind(this.docker))({
        abortSignal: timeout(),
      });
      const apiVersion = this.version.ApiVersion;
      if (apiOlderThan(apiVersion)) return diagnoseOldEngine(apiVersion, this.version.Version);
      return { apiVersion };
    } catch (error) {
      this.version = null;
      return diagnoseConnectionError(error, this.endpoint, this.facts);
    }
  }
}
