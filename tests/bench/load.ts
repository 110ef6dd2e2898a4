import { Agent, request } from 'node:http';

export interface Reply {
  status: number;
  body: string;
}

/** A keep-alive HTTP client with a fixed number of sockets: "N connections" in the figures. */
export class HttpClient {
  private readonly agent: Agent;

  constructor(connections: number) {
    this.agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          agent: this.agent,
          headers: body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('request timed out')));
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface Run {
  latencies: number[];
  errors: number;
  seconds: number;
}

/** Closed loop: `connections` workers each send the next request as soon as the previous answers. */
export async function closedLoop(
  connections: number,
  durationMs: number,
  send: (i: number) => Promise<boolean>,
): Promise<Run> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const ok = await send(next++).catch(() => false);
        if (ok) latencies.push(performance.now() - t0);
        else errors++;
      }
    }),
  );
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

/**
 * Open loop: request i is due at start + i/rate whatever happened to the earlier ones (no
 * coordinated omission); `send` receives its due time (a performance.now() value) so latencies
 * are measured from the schedule, not from when the generator got round to it.
 */
export async function openLoop(
  rate: number,
  durationMs: number,
  send: (i: number, dueAt: number) => Promise<void>,
): Promise<{ sent: number; lagMs: number }> {
  const total = Math.round((rate * durationMs) / 1000);
  const start = performance.now() + 20;
  const inFlight: Promise<void>[] = [];
  let i = 0;
  let lagMs = 0;
  while (i < total) {
    const now = performance.now();
    while (i < total && start + (i * 1000) / rate <= now) {
      const due = start + (i * 1000) / rate;
      lagMs = Math.max(lagMs, now - due);
      inFlight.push(send(i, due).catch(() => undefined));
      i++;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inFlight);
  return { sent: total, lagMs };
}

export function stats(samples: number[]): { n: number; p50: number; p95: number; p99: number; max: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => (s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]);
  return { n: s.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: s.length ? s[s.length - 1] : NaN };
}

/** Runs a bench script's main: exit 0 when it resolves, print the error and exit 1 when it rejects. */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
