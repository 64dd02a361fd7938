// A port for a process that takes its port as a setting (a PostgreSQL cluster, a server the
// bench starts): one nothing listens on now, asked of the system, then let go.
import net from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}
