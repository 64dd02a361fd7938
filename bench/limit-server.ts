// The "limit" server of npm run bench: a bare node:http server answering captured URLs with
// the same bytes and headers from memory. What no real service can beat on this machine.
import fs from 'node:fs';
import http from 'node:http';

interface Captured {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const captured = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Record<string, Captured>;
const answers = new Map(Object.entries(captured).map(([url, c]) => [url, { ...c, body: Buffer.from(c.body, 'base64') }]));

const server = http.createServer((request, response) => {
  const answer = answers.get(request.url ?? '');
  if (!answer) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length });
  response.end(answer.body);
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stderr.write(`limit server at http://127.0.0.1:${port}/api/v1/\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
