import type { Socket } from 'node:net';

/**
 * Error code of a request that reached a closing server after its goaway: it was not run, so the
 * caller may send it to another instance. Only a client that says it knows this code (`ga: 1` in
 * its request header) gets it; an older client's request is dropped with the connection, as before.
 */
export const RPC_GOING_AWAY = 'rpc_going_away';

/**
 * The internal RPC wire format, both ways (ADR 0011): u32 length of the rest, u32 header length, JSON header, body
 * bytes. The body travels as its own bytes so the envelope's HMAC covers exactly what was sent, and a refused request
 * is never parsed beyond its header. A reply header `{ goaway: true }` means "send nothing more here".
 */
export const LENGTH_BYTES = 4;
/** Headers carry an id, a pattern and the envelope: anything longer is not ours, and is refused unparsed. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Why a byte stream cannot be read any further; the connection must be dropped. */
export class FrameError extends Error {
  constructor(
    readonly reason: 'oversize' | 'malformed',
    message: string,
  ) {
    super(message);
  }
}

export function encodeFrame(header: object, body: string | Buffer = ''): Buffer {
  const head = JSON.stringify(header);
  const headBytes = Buffer.byteLength(head);
  const bodyBytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const out = Buffer.allocUnsafe(2 * LENGTH_BYTES + headBytes + bodyBytes);
  out.writeUInt32BE(LENGTH_BYTES + headBytes + bodyBytes, 0);
  out.writeUInt32BE(headBytes, LENGTH_BYTES);
  out.write(head, 2 * LENGTH_BYTES, 'utf8');
  if (typeof body === 'string') out.write(body, 2 * LENGTH_BYTES + headBytes, 'utf8');
  else body.copy(out, 2 * LENGTH_BYTES + headBytes);
  return out;
}

/** Splits one frame (without its length prefix) into its parsed header and its raw body. */
export function decodeFrame(frame: Buffer): { header: Record<string, unknown>; body: Buffer } {
  if (frame.length < LENGTH_BYTES) throw new FrameError('malformed', 'frame shorter than its header length');
  const headBytes = frame.readUInt32BE(0);
  if (headBytes > frame.length - LENGTH_BYTES) throw new FrameError('malformed', 'header longer than the frame');
  if (headBytes > MAX_HEADER_BYTES)
    throw new FrameError('malformed', `header of ${headBytes} bytes exceeds ${MAX_HEADER_BYTES}`);
  let header: unknown;
  try {
    header = JSON.parse(frame.toString('utf8', LENGTH_BYTES, LENGTH_BYTES + headBytes));
  } catch {
    throw new FrameError('malformed', 'header is not JSON');
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header))
    throw new FrameError('malformed', 'header is not an object');
  return { header: header as Record<string, unknown>, body: frame.subarray(LENGTH_BYTES + headBytes) };
}

/** Parses a JSON body; an empty body is `undefined`. */
export function parseBody(body: Buffer): unknown {
  return body.length === 0 ? undefined : JSON.parse(body.toString('utf8'));
}

/**
 * Cuts a TCP byte stream into frames. A length above `maxBytes` throws as soon as its 4 bytes
 * arrive, before any of the frame is buffered, so a peer cannot make the process hold more than
 * one maximum-size frame per connection.
 */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private need = -1;

  /** `maxBytes` may be changed between pushes (a server raises it once a peer has proved the secret). */
  constructor(
    public maxBytes: number,
    private readonly onFrame: (frame: Buffer) => void,
  ) {}

  /** True while part of a frame (even of its length) is buffered. */
  get partial(): boolean {
    return this.buffered > 0 || this.need >= 0;
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.need < 0) {
        if (this.buffered < LENGTH_BYTES) return;
        const length = this.take(LENGTH_BYTES).readUInt32BE(0);
        if (length > this.maxBytes)
          throw new FrameError('oversize', `frame of ${length} bytes exceeds the limit of ${this.maxBytes}`);
        if (length < LENGTH_BYTES) throw new FrameError('malformed', `frame of ${length} bytes cannot hold a header`);
        this.need = length;
      }
      if (this.buffered < this.need) return;
      const frame = this.take(this.need);
      this.need = -1;
      this.onFrame(frame);
    }
  }

  /** The next `n` buffered bytes; a view into the chunk when it holds them all (the usual case). */
  private take(n: number): Buffer {
    this.buffered -= n;
    const first = this.chunks[0];
    if (first.length >= n) {
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      const chunk = this.chunks[0];
      const used = Math.min(chunk.length, n - filled);
      chunk.copy(out, filled, 0, used);
      filled += used;
      if (used === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(used);
    }
    return out;
  }
}

const corked = new WeakSet<Socket>();

/**
 * Writes a frame, coalescing every frame written to the socket before `flushOn` fires into one send: under load a
 * system call each costs more than the framing. The default flushes at the end of the tick; setImmediate also gathers
 * the rest of this event-loop turn (other connections' requests).
 */
export function writeFrame(
  socket: Socket,
  frame: Buffer,
  flushOn: (flush: () => void) => void = process.nextTick,
): void {
  if (!corked.has(socket)) {
    corked.add(socket);
    socket.cork();
    flushOn(() => {
      corked.delete(socket);
      socket.uncork();
    });
  }
  socket.write(frame);
}
