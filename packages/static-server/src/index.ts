import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import sirv from 'sirv';

export interface StaticServerOptions {
  /** The build output folder. */
  dir: string;
  /** Single-page app: paths without a file extension answer with index.html. */
  spa: boolean;
}

/** Content-hashed build outputs never change, so browsers may keep them for a year. */
const HASHED_ASSET = /[.-][0-9a-f]{8,}\.(?:js|mjs|css|woff2?|png|jpe?g|svg|webp|gif|ico)$/;

export function cacheControlFor(pathname: string): string {
  if (HASHED_ASSET.test(pathname)) return 'public, max-age=31536000, immutable';
  // index.html, mf-manifest.json and remoteEntry.js name the current hashed files: always revalidate.
  return 'no-cache';
}

function setCommonHeaders(res: ServerResponse, pathname: string): void {
  res.setHeader('Cache-Control', cacheControlFor(pathname));
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

export function createStaticServer(options: StaticServerOptions): Server {
  const indexHtml = options.spa ? readFileSync(join(options.dir, 'index.html')) : undefined;
  const serveFile = sirv(options.dir, {
    etag: true,
    // The build writes file.br and file.gz beside each text asset (mfes/rspack.remote.ts): send the
    // smallest one the browser accepts, never compressing per request.
    brotli: true,
    gzip: true,
    dotfiles: false,
    setHeaders: (res, pathname) => setCommonHeaders(res, pathname),
  });
  return createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('Method not allowed');
      return;
    }
    serveFile(req, res, () => {
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (indexHtml && extname(pathname) === '') {
        setCommonHeaders(res, '/index.html');
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': indexHtml.length });
        res.end(req.method === 'HEAD' ? undefined : indexHtml);
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache' }).end('Not found');
    });
  });
}
