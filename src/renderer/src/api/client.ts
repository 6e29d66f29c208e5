import type { z } from 'zod';
import { ApiError, errorFromResponse } from './api-error';
import { Settings } from '../../../shared/api/settings';
import type { Connection } from './connection';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A 401 about the session key (`{"detail":"Unauthorized"}`), not one about a git token or a repository
 * (`Invalid token…`, `Unable to access repo…`, `Git provider token required.`), which are answered 401 too.
 */
function refusesSessionKey(response: Response, payload: unknown): boolean {
  return (
    response.status === 401 &&
    (typeof payload !== 'object' ||
      payload === null ||
      (payload as { detail?: unknown }).detail === 'Unauthorized')
  );
}

/**
 * The service's HTTP API: sends the session key, checks answers against the shared schemas and
 * turns failures into ApiErrors. `onUnauthorized` runs when the service refuses the key.
 */
export class ApiClient {
  constructor(
    private readonly connection: Pick<Connection, 'baseUrl' | 'apiKey'>,
    private readonly onUnauthorized: () => void = () => undefined,
  ) {}

  get baseUrl(): string {
    return this.connection.baseUrl;
  }

  /**
   * What an event-stream reader needs to open `path` (with `query`): its address and the key header.
   * The key never goes in the URL.
   */
  streamRequest(path: string, query: Record<string, string> = {}): StreamRequest {
    const search = new URLSearchParams(query).toString();
    return {
      url: `${this.connection.baseUrl}${path}${search ? `?${search}` : ''}`,
      headers: { 'X-Session-API-Key': this.connection.apiKey },
    };
  }

  get<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>> {
    return this.request('GET', path, schema);
  }

  send<S extends z.ZodType>(method: Method, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
    return this.request(method, path, schema, body);
  }

  /** A file the service sends (e.g. the workspace zip), as a Blob; failures as ApiErrors. */
  async download(path: string): Promise<Blob> {
    const response = await this.fetch('GET', path);
    if (!response.ok) throw await this.failure(response);
    return response.blob();
  }

  private async fetch(method: Method, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { 'X-Session-API-Key': this.connection.apiKey };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      return await fetch(`${this.connection.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(
        `Cannot reach the Dockhand service at ${this.connection.baseUrl}. Check that it is still running.`,
        0,
      );
    }
  }

  private async failure(response: Response): Promise<ApiError> {
    const payload = await readBody(response);
    if (refusesSessionKey(response, payload)) this.onUnauthorized();
    return errorFromResponse(response, payload);
  }

  private async request<S extends z.ZodType>(
    method: Method,
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<z.output<S>> {
    const response = await this.fetch(method, path, body);
    if (!response.ok) throw await this.failure(response);
    const payload = await readBody(response);
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      throw new ApiError(
        `The Dockhand service sent an answer to ${method} ${path} that this version of the app does not understand.`,
        response.status,
      );
    }
    return parsed.data;
  }
}

/** Whether the service accepts `apiKey`: any answer but 401 to GET /api/settings (404 = never saved). */
export async function keyIsAccepted(baseUrl: string, apiKey: string): Promise<boolean> {
  const probe = new ApiClient({ baseUrl, apiKey });
  try {
    await probe.get('/api/settings', Settings);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return true;
    if (error instanceof ApiError && error.status === 401) return false;
    throw error;
  }
}
