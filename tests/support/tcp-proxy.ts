import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Replies from the server are dropped (the calls still run). */
  dropReplies(on: boolean): void;
  /** Calls to the server are dropped (they never run). */
  dropRequests(on: boolean): void;
  /** New connections are closed at once (the server looks down). */
  refuse(on: boolean): void;
  /** Closes every open connection, as a network drop would. */
  cut(): void;
  close(): Promise<void>;
}

/** A TCP proxy on 127.0.0.1 in front of `host:port` that can lose traffic on demand. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const drop = { replies: false, requests: false, connections: false };
  const server: Server = createServer((client) => {
    if (drop.connections) return void client.destroy();
    const upstream = connect(port, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => {
      if (!drop.requests) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!drop.replies) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    dropReplies: (on) => (drop.replies = on),
    dropRequests: (on) => (drop.requests = on),
    refuse: (on) => (drop.connections = on),
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
