/**
 * The limit initialize is compared with: a minimal Node + pg HTTP server that persists what an initialize must (the
 * transaction row and its outbox event in one transaction) and answers the new id; no framework, RPC hop, validation
 * or auth. Writes to copies of the transaction-service tables (schema bench_limit) in the stack's own database.
 * Started by the benchmark with env DATABASE_URL, PORT, POOL_SIZE.
 */
import { randomUUID, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { Pool } from 'pg';

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_SIZE ?? 10),
  options: '-c search_path=bench_limit',
});
const id = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url').slice(0, 24)}`;

async function setup(): Promise<void> {
  await pool.query('CREATE SCHEMA IF NOT EXISTS bench_limit');
  await pool.query('CREATE TABLE IF NOT EXISTS bench_limit.transactions (LIKE public.transactions INCLUDING ALL)');
  await pool.query('CREATE TABLE IF NOT EXISTS bench_limit.outbox_events (LIKE public.outbox_events INCLUDING ALL)');
}

async function insert(body: {
  amount: number;
  email: string;
  currency: string;
  payment_method_type: string;
  transaction_reference: string;
}) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query(
      `INSERT INTO transactions (public_id, business_id, mode, reference, amount, charges, total, currency, email,
         payment_method_type, status, message, checkout_id, link_splits, expires_at)
       VALUES ($1, 1, 'test', $2, $3, 0, $3, $4, $5, $6, 'pending', 'Awaiting payment', $7, '[]',
               now() + interval '1 day')
       RETURNING *`,
      [
        id('txn'),
        body.transaction_reference,
        body.amount,
        body.currency,
        body.email,
        body.payment_method_type,
        id('chk'),
      ],
    );
    const row = rows[0];
    const envelope = {
      id: randomUUID(),
      type: 'transaction.status_changed',
      version: 1,
      occurred_at: new Date().toISOString(),
      data: { transaction: row, status: 'pending' },
    };
    await client.query(
      'INSERT INTO outbox_events (event_id, topic, message_key, payload, headers) VALUES ($1, $2, $3, $4, $5)',
      [envelope.id, 'transaction.status_changed', row.public_id, JSON.stringify(envelope), '{}'],
    );
    await client.query('COMMIT');
    return { transaction_id: row.public_id, status: row.status };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

void setup().then(() => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      insert(JSON.parse(Buffer.concat(chunks).toString('utf8')))
        .then((out) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(out));
        })
        .catch((err) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String((err as Error).message));
        });
    });
  });
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
});
