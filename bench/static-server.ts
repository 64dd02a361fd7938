// A minimal static file server for `npm run bench -- --iiif` (bench/iiif.ts): node:http, each
// request's path a file under the folder named on the command line, read at each request (from
// the page cache, after the first) and sent whole with its length and type; 404 otherwise.
// What the same tiles cost written out ahead of time as files, with no framework before them.
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? '.');
const TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp' };

const server = http.createServer((request, response) => {
  const file = path.join(root, decodeURIComponent(new URL(request.url ?? '/', 'http://static.invalid').pathname));
  if (!file.startsWith(root + path.sep)) {
    response.writeHead(404).end();
    return;
  }
  fs.readFile(file).then(
    (bytes) => response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': bytes.length }).end(bytes),
    () => response.writeHead(404).end(),
  );
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object') process.stderr.write(`static server at http://127.0.0.1:${address.port}/\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
