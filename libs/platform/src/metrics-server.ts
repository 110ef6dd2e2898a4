import { createServer, type Server } from 'node:http';
import { metricsRegistry } from './metrics';

/**
 * A separate listener for /metrics, so a public port never exposes them (METRICS_PORT). Answers
 * 404 for every other path. Resolves once it listens; rejects when the port is taken.
 */
export function startMetricsServer(host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metricsRegistry
      .metrics()
      .then((text) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text))
      .catch(() => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'));
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err) =>
      reject(new Error(`cannot serve metrics on ${host}:${port} (METRICS_PORT): ${err.message}`)),
    );
    server.listen(port, host, () => resolve(server));
  });
}
