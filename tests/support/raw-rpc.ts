import { connect } from 'node:net';
import type { Pool } from 'pg';

export interface RawReply {
  id: string;
  err?: { code?: string; message?: string };
  response?: unknown;
}

/**
 * An outsider's RPC client: speaks Nest's TCP framing (`<length>#<json>`) directly, so it can send
 * anything — no credentials, forged ones, a captured message again. Sends every frame on one
 * connection and resolves with the replies to the frames that carry an `id`, in order.
 */
export function rawRpc(port: number, frames: object[], timeoutMs = 10_000): Promise<RawReply[]> {
  const expected = frames.filter((f) => 'id' in f).length;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const replies: RawReply[] = [];
    let buffer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`only ${replies.length} of ${expected} RPC replies within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        const hash = buffer.indexOf('#');
        if (hash < 0) break;
        const length = Number(buffer.slice(0, hash));
        if (buffer.length < hash + 1 + length) break;
        replies.push(JSON.parse(buffer.slice(hash + 1, hash + 1 + length)) as RawReply);
        buffer = buffer.slice(hash + 1 + length);
      }
      if (replies.length >= expected) {
        clearTimeout(timer);
        socket.end();
        resolve(replies);
      }
    });
    socket.on('connect', () => {
      for (const frame of frames) {
        const json = JSON.stringify(frame);
        socket.write(`${json.length}#${json}`);
      }
      if (expected === 0) {
        clearTimeout(timer);
        socket.end();
        resolve([]);
      }
    });
  });
}

/** Every table of a database with a digest of its rows: equal snapshots mean nothing changed. */
export async function databaseSnapshot(pool: Pool): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`);
  const out: Record<string, string> = {};
  for (const { table_name } of rows) {
    const { rows: digest } = await pool.query<{ n: string; md5: string | null }>(
      `SELECT count(*) AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS md5 FROM "${table_name}" t`,
    );
    out[table_name] = `${digest[0].n}:${digest[0].md5 ?? ''}`;
  }
  return out;
}
