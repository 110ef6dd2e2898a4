import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { BaseRpcContext, Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import type { Logger } from 'pino';
import { isObservable, lastValueFrom } from 'rxjs';
import { rpcRefused } from '../metrics';
import type { RefusalReason, RpcVerifier } from '../rpc-auth/rpc-envelope';
import { ConnectionGuard } from './connection-guard';
import { FrameError, RPC_GOING_AWAY, decodeFrame, encodeFrame, parseBody, writeFrame } from './frame-codec';

/** Error code of a refused call, so the gateway can tell it from a handler's failure. */
export const RPC_REFUSED = 'rpc_refused';

/** How long a closing server waits for the replies of requests already running. */
const DRAIN_MS = 5_000;
/**
 * How long a closing server then waits for each client to close its end (a client does once it has
 * the replies of everything it sent): until then a request sent before the client saw the goaway
 * can still be answered "not run" instead of being lost with the connection.
 */
const PEER_CLOSE_MS = 2_000;

/** At most one refusal log line per interval (the rest are counted in it and the metric): a flood can't flood logs. */
const REFUSAL_LOG_INTERVAL_MS = 1_000;

/** What a handler sees as its RPC context: the connection and the pattern (handlers may read it with @Ctx()). */
export class FramedRpcContext extends BaseRpcContext<[Socket, string]> {
  getSocket(): Socket {
    return this.args[0];
  }

  getPattern(): string {
    return this.args[1];
  }
}

export interface FramedRpcServerOptions {
  host: string;
  port: number;
  maxFrameBytes: number;
  /** Connections open at once; more are closed as soon as they are accepted. */
  maxConnections: number;
  /** See ConnectionGuard: life of a connection without a valid request, and time to finish a frame. */
  frameTimeoutMs: number;
}

/**
 * The services' RPC server, a Nest transport strategy so `@MessagePattern` controllers run unchanged (ADR 0011). The
 * signed envelope is checked first: a request without valid, fresh, unseen credentials of the right scope never reaches
 * a handler, nor the "no handler" answer, so patterns cannot be probed. Refusals are logged and counted.
 */
export class FramedRpcServer extends Server implements CustomTransportStrategy {
  private server: NetServer | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly guards = new WeakMap<Socket, ConnectionGuard>();
  private lastRefusalLog = 0;
  private unloggedRefusals = 0;
  private inFlight = 0;
  private closing = false;
  private closed: Promise<void> | undefined;
  private drained: (() => void) | undefined;

  constructor(
    private readonly options: FramedRpcServerOptions,
    private readonly verifier: RpcVerifier,
    private readonly log: Logger,
  ) {
    super();
  }

  listen(callback: (err?: unknown) => void): void {
    const server = createServer((socket) => this.accept(socket));
    server.maxConnections = this.options.maxConnections;
    this.server = server;
    server.once('error', callback);
    server.listen(this.options.port, this.options.host, () => {
      server.off('error', callback);
      server.on('error', (err) => this.log.error({ err }, 'RPC server error'));
      callback();
    });
  }

  /**
   * Stops taking connections and requests, lets the running ones finish, and tells every client to
   * go elsewhere. Safe to call more than once (the service's shutdown calls it before Nest does).
   */
  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    this.verifier.close();
    this.closing = true;
    // Stops accepting; its callback waits for every connection, so it is awaited only after the drain.
    const closed = new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    // `goaway` tells each client to send nothing more on this connection (it reconnects or moves
    // on). Requests it sent before reading the goaway are answered "going away", not run (onFrame).
    for (const socket of this.sockets) this.write(socket, encodeFrame({ goaway: true }));
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, DRAIN_MS);
        this.drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    // Each client closes its end once it has every reply it waits for; end() then sends what is
    // still queued here before closing. A client that does not close in time is ended, then cut off.
    const peersClosed = [...this.sockets].map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readableEnded || socket.destroyed) return resolve();
          socket.once('end', resolve);
          socket.once('close', resolve);
        }),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(peersClosed),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, PEER_CLOSE_MS))),
    ]);
    clearTimeout(timer);
    for (const socket of this.sockets) socket.end();
    const cutOff = setTimeout(() => {
      for (const socket of this.sockets) socket.destroy();
    }, 1_000);
    await closed;
    clearTimeout(cutOff);
  }

  on(): never {
    throw new Error('FramedRpcServer has no events to listen to');
  }

  unwrap<T>(): T {
    return this.server as T;
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const guard = new ConnectionGuard(
      socket,
      { maxFrameBytes: this.options.maxFrameBytes, timeoutMs: this.options.frameTimeoutMs },
      (frame) => this.onFrame(socket, frame),
      () => {
        this.refuse(socket, 'timeout', undefined);
        socket.destroy();
      },
    );
    this.guards.set(socket, guard);
    socket.on('data', (chunk: Buffer) => {
      try {
        guard.push(chunk);
      } catch (err) {
        const reason: RefusalReason = err instanceof FrameError ? err.reason : 'malformed';
        this.refuse(socket, reason, undefined);
        socket.destroy();
      }
    });
    socket.on('error', (err) => this.log.debug({ err: err.message }, 'RPC connection error'));
    socket.on('close', () => {
      guard.close();
      this.sockets.delete(socket);
    });
  }

  private onFrame(socket: Socket, frame: Buffer): void {
    const { header, body } = decodeFrame(frame);
    const { id, pattern, auth } = header;
    const replyTo = typeof id === 'number' || typeof id === 'string' ? id : undefined;
    if (this.closing) {
      // Sent before the client read the goaway: not run, and said so, so it can go elsewhere. A
      // client that would not know the code (an older gateway during a rollout would take it for a
      // failure) gets no answer: the connection's end tells it the outcome is unknown, as before.
      if (replyTo !== undefined && header.ga === 1)
        this.write(
          socket,
          encodeFrame({ id: replyTo, err: { code: RPC_GOING_AWAY, message: 'the service is shutting down; not run' } }),
        );
      return;
    }
    const reason = this.verifier.verify({ pattern, body, auth });
    if (reason !== null) {
      this.refuse(socket, reason, pattern);
      if (replyTo !== undefined)
        this.write(
          socket,
          encodeFrame({ id: replyTo, err: { code: RPC_REFUSED, message: `request refused: ${reason}` } }),
        );
      return;
    }
    this.guards.get(socket)?.verifiedOnce();
    const name = pattern as string;
    let data: unknown;
    try {
      data = parseBody(body);
    } catch {
      // Signed, so from a holder of the secret: a bug of the caller, not an attack.
      this.log.error({ pattern: name }, 'RPC request body is not JSON');
      if (replyTo !== undefined)
        this.write(socket, encodeFrame({ id: replyTo, err: { message: 'request body is not JSON' } }));
      return;
    }
    // The caller's deadline on this process's clock, set only from a version 2 signed envelope (never from the body):
    // handlers start no work once it has passed.
    const signed = auth as { v?: unknown; ttl?: unknown } | undefined;
    const ttl = signed?.v === 2 ? signed.ttl : undefined;
    const rpcCtx = (data as { ctx?: unknown } | null)?.ctx;
    if (rpcCtx !== null && typeof rpcCtx === 'object') {
      if (typeof ttl === 'number') (rpcCtx as { deadline_at?: number }).deadline_at = Date.now() + ttl;
      else delete (rpcCtx as { deadline_at?: number }).deadline_at;
    }
    const ctx = new FramedRpcContext([socket, name]);
    if (replyTo === undefined) {
      this.handleEvent(name, { pattern: name, data }, ctx).catch((err: unknown) =>
        this.log.error({ err, pattern: name }, 'RPC event handler failed'),
      );
      return;
    }
    // A string pattern is its own key; Nest's lookup first tries JSON.parse on it, which throws for
    // every plain string and was a tenth of this server's CPU.
    const handler = this.messageHandlers.get(name) ?? this.getHandlerByPattern(name);
    if (!handler) {
      this.write(socket, encodeFrame({ id: replyTo, err: { message: `no handler for ${name.slice(0, 80)}` } }));
      return;
    }
    this.inFlight++;
    void this.run(handler, data, ctx)
      .then(
        (response) =>
          this.write(socket, encodeFrame({ id: replyTo }, response === undefined ? '' : JSON.stringify(response))),
        (err: unknown) => this.write(socket, encodeFrame({ id: replyTo, err: errorBody(err) })),
      )
      .finally(() => {
        if (--this.inFlight === 0) this.drained?.();
      });
  }

  /** Runs Nest's handler (guards, interceptors, filters included) and takes its last value. */
  private async run(handler: MessageHandler, data: unknown, ctx: FramedRpcContext): Promise<unknown> {
    const out: unknown = await handler(data, ctx);
    return isObservable(out) ? lastValueFrom(out, { defaultValue: undefined }) : out;
  }

  private write(socket: Socket, frame: Buffer): void {
    if (socket.destroyed) return;
    writeFrame(socket, frame);
    this.guards.get(socket)?.wrote();
  }

  private refuse(socket: Socket, reason: RefusalReason, pattern: unknown): void {
    rpcRefused.inc({ reason });
    const now = Date.now();
    if (now - this.lastRefusalLog < REFUSAL_LOG_INTERVAL_MS) {
      this.unloggedRefusals++;
      return;
    }
    this.lastRefusalLog = now;
    const suppressed = this.unloggedRefusals;
    this.unloggedRefusals = 0;
    this.log.warn(
      {
        peer: `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`,
        reason,
        pattern: typeof pattern === 'string' ? pattern.slice(0, 80) : typeof pattern,
        suppressed,
      },
      'RPC request refused',
    );
  }
}

/** What the caller learns of a failed handler: only a message an exception filter chose to expose. */
function errorBody(err: unknown): { message: string } {
  const message = (err as { message?: unknown } | null)?.message;
  return { message: typeof message === 'string' && message !== '' ? message.slice(0, 500) : 'internal error' };
}
