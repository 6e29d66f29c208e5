import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';

/**
 * The HTTP transport of model calls: the `fetch` the AI SDK providers are given, on undici's `request`.
 * Node's global `fetch` builds a WHATWG request and streams the body through web streams on the way out
 * and in; a model call then spends about a millisecond more in the client than the same exchange costs
 * here. Responses keep the `fetch` contract the providers read: status, headers and a streamed body,
 * which delivers everything already received as one chunk.
 */

/** Kept-alive connections. */
const dispatcher = new Agent({ keepAliveTimeout: 30_000 });

/** As many redirects as `fetch` follows. */
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The URL a redirect leads to when it is followed: only within the origin of the request (same scheme, host
 * and port), so a model endpoint cannot send the request, its API key and the conversation to another host
 * or from https to plain http. Otherwise null: the redirect itself is the answer the provider sees.
 */
export function followedRedirect(from: string, status: number, location: string | undefined): string | null {
  if (!REDIRECTS.has(status) || !location) return null;
  const next = URL.parse(location, from);
  return next && next.origin === new URL(from).origin ? next.href : null;
}

function requestHeaders(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(headers);
  return headers;
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each);
  }
  return headers;
}

/** The request body as undici takes it: the providers send JSON text (and form data for uploads). */
function requestBody(body: BodyInit | null | undefined): string | Uint8Array | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('The model call transport sends text or bytes only');
}

/** A web stream over a Node stream that passes on all the bytes buffered so far at each read. */
function webBody(body: Readable): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      body.on('readable', () => {
        const parts: Buffer[] = [];
        for (let part: Buffer | null; (part = body.read() as Buffer | null) !== null;) parts.push(part);
        if (parts.length > 0)
          controller.enqueue(parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts));
      });
      body.once('end', () => controller.close());
      body.once('error', (error) => controller.error(error));
    },
    cancel(reason) {
      body.destroy(reason instanceof Error ? reason : undefined);
    },
  });
}

/** `fetch` for the model providers; network failures reject like `fetch` (`TypeError: fetch failed`). */
export const modelFetch: typeof fetch = async (input, init) => {
  let url = input instanceof Request ? input.url : String(input);
  let method = (init?.method ?? 'GET').toUpperCase();
  let body = requestBody(init?.body);
  for (let redirects = 0; ; redirects++) {
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method: method as 'GET',
        headers: requestHeaders(init?.headers),
        body,
        signal: init?.signal ?? undefined,
        dispatcher,
      });
    } catch (error) {
      if (init?.signal?.aborted) throw init.signal.reason;
      throw new TypeError('fetch failed', { cause: error });
    }
    const status = response.statusCode;
    const location = response.headers.location;
    const next = redirects < MAX_REDIRECTS ? followedRedirect(url, status, String(location ?? '')) : null;
    if (next) {
      response.body.resume();
      // As `fetch`: 303, and 301/302 after a POST, continue as a GET without a body.
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
      }
      url = next;
      continue;
    }
    // A response with no body (204, 304) cannot carry one in the WHATWG `Response`.
    const webStream = status === 204 || status === 304 ? null : webBody(response.body);
    if (!webStream) response.body.resume();
    return new Response(webStream, { status, headers: responseHeaders(response.headers) });
  }
};
