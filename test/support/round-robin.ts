import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small HTTP proxy that sends each request to the next of its targets, as Docker's DNS or a
 * Kubernetes Service spreads requests over replicas. A target that refuses the connection (killed)
 * is skipped for that request. Targets can change while it runs.
 */
export async function startRoundRobin(targets: string[] = []) {
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (left: number) => {
        const target = new URL(targets[next++ % targets.length]!);
        const upstream = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', (err: NodeJS.ErrnoException) => {
          // A replica that is gone (refused) is skipped; so is one that dropped a read mid-way.
          const retry = err.code === 'ECONNREFUSED' || (req.method === 'GET' && err.code === 'ECONNRESET');
          if (!res.headersSent && retry && left > 1) return attempt(left - 1);
          if (!res.headersSent) res.writeHead(502, { 'x-round-robin-error': err.code ?? err.message }).end();
          else res.destroy();
        });
        upstream.end(body);
      };
      attempt(targets.length);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    targets,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
