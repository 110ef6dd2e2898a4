import type { Socket } from 'node:net';
import { FrameDecoder } from './frame-codec';

/**
 * Largest frame a connection may announce before one of its requests verifies. The gateway's requests are far smaller,
 * so only peers without the secret meet it; it caps what they can make a service buffer at RPC_MAX_CONNECTIONS × 1 MiB.
 */
export const UNVERIFIED_FRAME_BYTES = 1024 * 1024;

/** Replies queued for a peer that does not read them, beyond which its requests are no longer read. */
export const REPLY_BACKLOG_BYTES = 1024 * 1024;

export interface ConnectionGuardOptions {
  maxFrameBytes: number;
  /** Life of a connection that has not yet sent a valid request, and time to finish a started frame. */
  timeoutMs: number;
}

/**
 * What one RPC connection may do, so peers without the secret cannot hold a service's memory or connections: until a
 * request verifies, frames ≤ UNVERIFIED_FRAME_BYTES and `timeoutMs` to live; then frames ≤ RPC_MAX_FRAME_BYTES, each
 * complete within `timeoutMs`; reading pauses while over REPLY_BACKLOG_BYTES of replies wait, so a peer that never
 * reads cannot grow the send buffer.
 */
export class ConnectionGuard {
  readonly decoder: FrameDecoder;
  private verified = false;
  private timer: NodeJS.Timeout | undefined;
  private throttled = false;

  constructor(
    private readonly socket: Socket,
    private readonly options: ConnectionGuardOptions,
    onFrame: (frame: Buffer) => void,
    private readonly onTimeout: () => void,
  ) {
    this.decoder = new FrameDecoder(Math.min(options.maxFrameBytes, UNVERIFIED_FRAME_BYTES), (frame) => {
      if (this.verified) this.disarm();
      onFrame(frame);
    });
    this.arm();
  }

  /** A request on this connection passed the envelope check: the peer holds the secret. */
  verifiedOnce(): void {
    if (this.verified) return;
    this.verified = true;
    this.decoder.maxBytes = this.options.maxFrameBytes;
    this.disarm();
  }

  push(chunk: Buffer): void {
    this.decoder.push(chunk);
    if (this.verified && this.decoder.partial) this.arm();
  }

  /** Called after each reply is queued. */
  wrote(): void {
    if (this.throttled || this.socket.writableLength < REPLY_BACKLOG_BYTES) return;
    this.throttled = true;
    this.socket.pause();
    this.socket.once('drain', () => {
      this.throttled = false;
      this.socket.resume();
    });
  }

  close(): void {
    this.disarm();
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onTimeout();
    }, this.options.timeoutMs);
    this.timer.unref();
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
