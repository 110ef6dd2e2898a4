import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPost {
  path: string;
  contentType: string | undefined;
  body: string;
  at: number;
}

/**
 * A merchant's result URL for tests: records every POST and answers the next code of `script`, then
 * `status` once the script is used up (200 unless a test changes it).
 */
export class ResultReceiver {
  readonly received: ReceivedPost[] = [];
  status = 200;
  script: number[] = [];
  /** The body of a 2xx answer ('ok' unless a test changes it: DPO's push wants 'OK'). */
  okBody = 'ok';
  url = '';
  private server: Server | null = null;

  static async start(): Promise<ResultReceiver> {
    const receiver = new ResultReceiver();
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        receiver.received.push({
          path: req.url ?? '/',
          contentType: req.headers['content-type'],
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        const status = receiver.script.shift() ?? receiver.status;
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(status < 300 ? receiver.okBody : 'error');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver.server = server;
    receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return receiver;
  }

  at(path: string): ReceivedPost[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A loopback port nothing listens on (it was free a moment ago): connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
