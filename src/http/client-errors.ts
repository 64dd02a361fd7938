// Requests too broken to reach Fastify's router (bad HTTP syntax, oversized headers) still
// get a JSON answer in the API's shape, then the connection closes.
import type { Socket } from 'node:net';

const STATUS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request headers too large.'],
};
const BAD_REQUEST: [number, string, string] = [400, 'Bad Request', 'Bad request.'];

export function handleClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const [status, reason, detail] = STATUS[error.code ?? ''] ?? BAD_REQUEST;
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
