import { connect } from 'node:net';
import type { Pool } from 'pg';
import { FrameDecoder, decodeFrame, encodeFrame, parseBody } from '@payments/platform';

export interface RawReply {
  id: string | number;
  err?: { code?: string; message?: string };
  response?: unknown;
}

/** One request as an outsider builds it: the frame header and the body text, signed or not. */
export interface RawFrame {
  header: { id?: string | number; pattern?: unknown; auth?: unknown };
  body: string;
}

/**
 * An outsider's RPC client: writes the length-prefixed frames of the internal RPC wire format
 * directly, so it can send anything — no credentials, forged ones, a captured message again, or
 * raw bytes. Sends everything on one connection and resolves with the replies to the frames that
 * carry an `id`, in order. With no `id` at all, it waits for the service to close the connection.
 */
export function rawRpc(port: number, frames: (RawFrame | Buffer)[], timeoutMs = 10_000): Promise<RawReply[]> {
  return rawRpcSession(port, frames, timeoutMs).then((r) => r.replies);
}

export function rawRpcSession(
  port: number,
  frames: (RawFrame | Buffer)[],
  timeoutMs = 10_000,
): Promise<{ replies: RawReply[]; closedByPeer: boolean }> {
  const expected = frames.filter((f) => !Buffer.isBuffer(f) && f.header.id !== undefined).length;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const replies: RawReply[] = [];
    let done = false;
    const finish = (closedByPeer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.end();
      resolve({ replies, closedByPeer });
    };
    const timer = setTimeout(() => {
      done = true;
      socket.destroy();
      reject(new Error(`only ${replies.length} of ${expected} RPC replies within ${timeoutMs} ms`));
    }, timeoutMs);
    const decoder = new FrameDecoder(64 * 1024 * 1024, (frame) => {
      const { header, body } = decodeFrame(frame);
      replies.push({ ...(header as { id: string | number; err?: RawReply['err'] }), response: parseBody(body) });
    });
    socket.on('error', (err) => {
      if (done) return;
      if ((err as NodeJS.ErrnoException).code === 'ECONNRESET' || (err as NodeJS.ErrnoException).code === 'EPIPE')
        return finish(true);
      clearTimeout(timer);
      done = true;
      reject(err);
    });
    socket.on('close', () => finish(true));
    socket.on('data', (chunk: Buffer) => {
      decoder.push(chunk);
      if (expected > 0 && replies.length >= expected) finish(false);
    });
    socket.on('connect', () => {
      for (const frame of frames) socket.write(Buffer.isBuffer(frame) ? frame : encodeFrame(frame.header, frame.body));
    });
  });
}

/** Every table of a database with a digest of its rows: equal snapshots mean nothing changed. */
export async function databaseSnapshot(pool: Pool): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ` +
      `AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const out: Record<string, string> = {};
  for (const { table_name } of rows) {
    const { rows: digest } = await pool.query<{ n: string; md5: string | null }>(
      `SELECT count(*) AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS md5 FROM "${table_name}" t`,
    );
    out[table_name] = `${digest[0].n}:${digest[0].md5 ?? ''}`;
  }
  return out;
}
