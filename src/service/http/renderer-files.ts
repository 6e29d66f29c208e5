import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { NextFunction, Request, Response } from 'express';

/** Every file of the built renderer by its URL path (`/index.html`, `/assets/…`); the shell also at `/`. */
function listFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(`/${path.relative(dir, file).split(path.sep).join('/')}`, file);
  }
  const shell = files.get('/index.html');
  if (shell) files.set('/', shell);
  return files;
}

/**
 * The built UI, open without a key: its shell and static assets, listed once at start, and nothing else —
 * no SPA fallback (the UI routes in the URL fragment). A missing folder serves nothing.
 */
export function rendererFiles(dir: string | undefined) {
  const files = dir && existsSync(path.join(dir, 'index.html')) ? listFiles(dir) : new Map<string, string>();
  return (req: Request, res: Response, next: NextFunction) => {
    const file = req.method === 'GET' || req.method === 'HEAD' ? files.get(req.path) : undefined;
    if (file === undefined) return next();
    res.sendFile(file, { dotfiles: 'allow' }, (error) => error && next(error));
  };
}
