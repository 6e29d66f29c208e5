import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { APP_HOST } from './page-origin';

/** app:// behaves like https for the page: a real origin, a secure context, fetch and code cache. */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  codeCache: true,
} as const;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * The file a request names inside the renderer folder, or null when the path escapes it. A path
 * without an extension that matches no file is a client-side route and gets index.html.
 */
async function fileFor(rendererDir: string, pathname: string): Promise<string | null> {
  const relative = path.normalize(pathname).replace(/^[/\\]+/, '');
  const file = path.join(rendererDir, relative || 'index.html');
  const inside = path.relative(rendererDir, file);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return null;
  if (await isFile(file)) return file;
  return path.extname(file) === '' ? path.join(rendererDir, 'index.html') : null;
}

function decodePath(url: URL): string | null {
  try {
    const decoded = decodeURIComponent(url.pathname);
    return decoded.includes('\0') ? null : decoded;
  } catch {
    return null;
  }
}

/** The app:// handler: serves the built renderer's files, each with the page's CSP. */
export function appProtocolHandler(options: {
  rendererDir: string;
  csp: string;
}): (request: Request) => Promise<Response> {
  const rendererDir = path.resolve(options.rendererDir);
  const headers = { 'Content-Security-Policy': options.csp, 'X-Content-Type-Options': 'nosniff' };
  const fail = (status: number) => new Response(null, { status, headers });
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return fail(405);
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return fail(404);
    const pathname = decodePath(url);
    const file = pathname === null ? null : await fileFor(rendererDir, pathname);
    if (!file || !(await isFile(file))) return fail(404);
    const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    const body = request.method === 'HEAD' ? null : await readFile(file);
    return new Response(body, { status: 200, headers: { ...headers, 'Content-Type': type } });
  };
}
