import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './infra';
import { waitFor } from './wait';

export type AppName = 'gateway' | 'transaction-service' | 'split-ledger-service' | 'webhook-dispatcher';

/** Ports this worker handed out: a port checked free is not handed out again while its app may still be binding it. */
const handedOut = new Set<number>();
/**
 * Each jest worker draws from its own slice of 20000–31999, so two workers starting stacks at once never pick the same
 * port.
 */
const SLICE = 1_500;
const SLICE_BASE = 20_000 + ((Math.max(1, Number(process.env.JEST_WORKER_ID ?? 1)) - 1) % 8) * SLICE;

export async function freePort(): Promise<number> {
  // Below Linux's ephemeral range (32768–60999): a port the kernel handed out with listen(0) is
  // also one it may give an outgoing connection (a Kafka or database client of another test)
  // between this check and the app's own bind, which then fails with EADDRINUSE.
  if (handedOut.size > SLICE / 2) handedOut.clear();
  for (let tries = 0; tries < 500; tries++) {
    const port = SLICE_BASE + Math.floor(Math.random() * SLICE);
    if (handedOut.has(port)) continue;
    if (await canBind(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${SLICE_BASE}–${SLICE_BASE + SLICE - 1}`);
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A service process started from the build in dist/, with its output captured. */
export class AppProcess {
  output = '';
  exitCode: number | null = null;
  private exited: Promise<number | null>;

  constructor(
    readonly app: AppName,
    readonly child: ChildProcess,
    readonly httpPort: number,
  ) {
    child.stdout?.on('data', (d) => (this.output += d));
    child.stderr?.on('data', (d) => (this.output += d));
    this.exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => resolve((this.exitCode = code ?? (signal ? 128 : null)))),
    );
  }

  get running(): boolean {
    return this.exitCode === null && this.child.exitCode === null && this.child.signalCode === null;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.httpPort}${path}`;
  }

  async waitReady(timeoutMs = 60_000): Promise<void> {
    await waitFor(
      `${this.app} /health/ready`,
      async () => {
        if (!this.running) throw new Error(`${this.app} exited with ${this.exitCode}:\n${this.output.slice(-3000)}`);
        const res = await fetch(this.url('/health/ready'), { signal: AbortSignal.timeout(2_000) });
        return res.ok;
      },
      { timeoutMs, intervalMs: 150 },
    ).catch((err) => {
      throw new Error(`${(err as Error).message}\n--- ${this.app} output ---\n${this.output.slice(-4000)}`);
    });
  }

  /** Resolves with the exit code once the process ends. */
  waitExit(timeoutMs = 30_000): Promise<number | null> {
    return Promise.race([
      this.exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${this.app} did not exit within ${timeoutMs} ms`)), timeoutMs).unref(),
      ),
    ]);
  }

  /** Graceful stop (SIGTERM), as Kubernetes does. */
  async stop(): Promise<number | null> {
    if (!this.running) return this.exitCode;
    this.child.kill('SIGTERM');
    return this.waitExit(40_000);
  }

  /** A crash: no shutdown hooks, nothing flushed. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.waitExit(10_000);
  }
}

export function startApp(app: AppName, env: Record<string, string>, httpPort: number, args: string[] = []): AppProcess {
  const main = join(ROOT, 'dist', 'apps', app, 'src', 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: build first (npm test does)`);
  const child = spawn(process.execPath, [main, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new AppProcess(app, child, httpPort);
}
