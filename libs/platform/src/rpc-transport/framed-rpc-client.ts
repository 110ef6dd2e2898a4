import { connect, type Socket } from 'node:net';
import type { RpcSigner } from '../rpc-auth/rpc-envelope';
import { FrameDecoder, RPC_GOING_AWAY, decodeFrame, encodeFrame, parseBody, writeFrame } from './frame-codec';

/**
 * The request was not run: no connection could be made, or the instance was shutting down and
 * said so. Another instance may be tried.
 */
export class RpcNotSentError extends Error {}
/** The connection broke after the request was written: the service may or may not have acted on it. */
export class RpcConnectionLostError extends Error {}
/** No reply within the deadline: the outcome is unknown. */
export class RpcTimeoutError extends Error {}
/** The service answered with an error instead of a response (`code` rpc_refused: nothing ran). */
export class RpcRemoteError extends Error {
  constructor(
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export interface FramedRpcClientOptions {
  host: string;
  port: number;
  /** Signs every request; without it requests carry no credentials (only tests want that). */
  signer: RpcSigner;
  /** Default deadline of a call, connecting included. */
  timeoutMs: number;
  /**
   * Longest a connect may take, inside the call's deadline (default 1 s; never more than a quarter
   * of `timeoutMs`). An address that drops SYNs (no RST) then fails in this time
   * rather than using the whole deadline, so the caller still has time to try another address.
   */
  connectTimeoutMs?: number;
  maxFrameBytes: number;
  /** After a failed connect, calls fail at once (RpcNotSentError) for this long, doubling up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * A call whose connect left less than this before its deadline is not sent: a reply timer of a few
 * milliseconds would almost surely fire, turning a request the service may well run into an
 * outcome-unknown timeout instead of a clean "not sent".
 */
export const MIN_REPLY_MS = 50;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
  socket: Socket;
}

/**
 * One persistent connection to one service instance carrying many calls, replies matched by id. Connects on first use
 * and after a drop; a failed connect backs off exponentially so a down instance is not dialled by every request.
 */
export class FramedRpcClient {
  private socket: Socket | undefined;
  private connecting: Promise<Socket> | undefined;
  private readonly pending = new Map<number, Pending>();
  /** Connections whose server said goaway: closed by us once their last reply is in. */
  private readonly leaving = new WeakSet<Socket>();
  private nextId = 1;
  private failures = 0;
  private retryAt = 0;
  private closed = false;

  constructor(private readonly options: FramedRpcClientOptions) {}

  /**
   * Sends one request; resolves with the response, or rejects with one of the errors above. The
   * deadline covers the whole call, connecting included: a slow connect leaves less time for the
   * reply, never more.
   */
  async request<T>(pattern: string, data: unknown, timeoutMs = this.options.timeoutMs): Promise<T> {
    let socket = this.socket;
    // The reply timer's duration stays the call's own on a connected client: Node keeps one timer
    // list per duration, and a duration that differs by a millisecond each call costs a list each.
    let replyMs = timeoutMs;
    if (!socket) {
      const deadline = Date.now() + timeoutMs;
      socket = await this.connectBy(deadline, timeoutMs);
      replyMs = deadline - Date.now();
      if (replyMs < MIN_REPLY_MS)
        throw new RpcNotSentError(
          `connected to ${this.address} with only ${replyMs} ms of the call's ${timeoutMs} ms left`,
        );
    }
    // A service that stopped reading: queueing more would only grow this process and run the
    // calls long after their callers gave up. Not sent, so another instance may take it.
    if (socket.writableLength >= this.options.maxFrameBytes)
      throw new RpcNotSentError(`${this.address} is not reading its requests`);
    const body = data === undefined ? '' : JSON.stringify(data);
    const id = this.nextId++;
    // The deadline travels with the request (signed): the time this call still waits, as of now.
    // `ga`: this client takes a "going away" answer as not sent (see RPC_GOING_AWAY).
    const frame = encodeFrame({ id, pattern, auth: this.options.signer.sign(pattern, body, replyMs), ga: 1 }, body);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RpcTimeoutError(`no reply to ${pattern} within ${timeoutMs} ms`));
        this.endIfLeft(socket);
      }, replyMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer, socket });
      // Requests of every HTTP request handled in this turn of the event loop leave in one write.
      writeFrame(socket, frame, setImmediate);
    });
  }

  /**
   * The connection, once made, if that happens before `deadline` and within the connect cap. A
   * connect shared by several calls runs on (up to the cap) for the others when one caller's time is up.
   */
  private connectBy(deadline: number, timeoutMs: number): Promise<Socket> {
    const connecting = this.connect();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      const wait = Math.min(deadline - Date.now(), this.connectTimeoutMs);
      timer = setTimeout(
        () =>
          reject(
            new RpcNotSentError(`cannot connect to ${this.address} within ${wait} ms (call deadline ${timeoutMs} ms)`),
          ),
        wait,
      );
    });
    // The caller that gave up must not leave the shared connect's failure unhandled.
    connecting.catch(() => undefined);
    return Promise.race([connecting, late]).finally(() => clearTimeout(timer));
  }

  close(): void {
    this.closed = true;
    this.socket?.destroy();
    this.socket = undefined;
  }

  /**
   * Stops using this address without failing what it is waiting for: no new call is sent, the
   * calls in flight get their replies, then the connection is ended (as after a goaway). For an
   * address that left the service's DNS answers, e.g. a pod that is terminating.
   */
  retire(): void {
    this.closed = true;
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) return;
    this.leaving.add(socket);
    this.endIfLeft(socket);
  }

  private connect(): Promise<Socket> {
    if (this.closed) return Promise.reject(new RpcNotSentError('client closed'));
    if (Date.now() < this.retryAt)
      return Promise.reject(new RpcNotSentError(`connect to ${this.address} failed recently; retrying after backoff`));
    this.connecting ??= new Promise<Socket>((resolve, reject) => {
      const socket = connect({ host: this.options.host, port: this.options.port, noDelay: true, keepAlive: true });
      socket.setTimeout(this.connectTimeoutMs);
      const fail = (err: Error) => {
        socket.destroy();
        this.connecting = undefined;
        this.failures++;
        const backoff = Math.min(
          this.options.maxBackoffMs ?? 1_000,
          (this.options.backoffMs ?? 50) * 2 ** (this.failures - 1),
        );
        this.retryAt = Date.now() + backoff;
        reject(new RpcNotSentError(`cannot connect to ${this.address}: ${err.message}`));
      };
      const onTimeout = () => fail(new Error('connect timed out'));
      socket.once('error', fail);
      socket.once('timeout', onTimeout);
      socket.once('connect', () => {
        socket.off('error', fail);
        socket.off('timeout', onTimeout);
        socket.setTimeout(0);
        this.connecting = undefined;
        this.failures = 0;
        if (this.closed) {
          socket.destroy();
          reject(new RpcNotSentError('client closed'));
          return;
        }
        this.attach(socket);
        resolve(socket);
      });
    });
    return this.connecting;
  }

  private attach(socket: Socket): void {
    this.socket = socket;
    const decoder = new FrameDecoder(this.options.maxFrameBytes, (frame) => this.onReply(socket, frame));
    socket.on('data', (chunk: Buffer) => {
      try {
        decoder.push(chunk);
      } catch (err) {
        socket.destroy(err as Error);
      }
    });
    socket.on('error', () => undefined); // 'close' follows and fails what is pending
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      for (const [id, call] of this.pending) {
        if (call.socket !== socket) continue;
        clearTimeout(call.timer);
        call.reject(new RpcConnectionLostError(`connection to ${this.address} closed before the reply`));
        this.pending.delete(id);
      }
    });
  }

  private onReply(socket: Socket, frame: Buffer): void {
    const { header, body } = decodeFrame(frame);
    if (header.goaway === true) {
      // The server is shutting down: calls already sent get their replies on this connection
      // (run, or "going away" if they arrived after the goaway), new ones go to a new connection.
      // Once the last reply is in we close our end, which tells the server nothing more is coming.
      if (this.socket === socket) this.socket = undefined;
      this.leaving.add(socket);
      this.endIfLeft(socket);
      return;
    }
    const call = typeof header.id === 'number' ? this.pending.get(header.id) : undefined;
    if (!call) return; // timed out already
    this.pending.delete(header.id as number);
    clearTimeout(call.timer);
    const err = header.err as { code?: string; message?: string } | undefined;
    if (err?.code === RPC_GOING_AWAY)
      call.reject(new RpcNotSentError(`${this.address} is shutting down and did not run the request`));
    else if (err) call.reject(new RpcRemoteError(err.code, String(err.message ?? 'error')));
    else {
      try {
        call.resolve(parseBody(body));
      } catch {
        call.reject(new RpcRemoteError(undefined, 'reply body is not JSON'));
      }
    }
    this.endIfLeft(socket);
  }

  /** Closes our end of a connection the server is leaving once no call waits on it. */
  private endIfLeft(socket: Socket): void {
    if (!this.leaving.has(socket)) return;
    for (const call of this.pending.values()) if (call.socket === socket) return;
    socket.end();
  }

  private get connectTimeoutMs(): number {
    return Math.min(this.options.connectTimeoutMs ?? 1_000, Math.ceil(this.options.timeoutMs / 4));
  }

  private get address(): string {
    return `${this.options.host}:${this.options.port}`;
  }
}
