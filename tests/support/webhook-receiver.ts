import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** A self-signed certificate for 127.0.0.1/localhost; the dispatcher trusts it through WEBHOOK_CA_FILE. */
export function selfSignedCertificate(): { certFile: string; keyFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}

/**
 * A merchant's HTTPS endpoint for tests. Each path answers from its script (status codes in
 * order, then the last one forever; default 200) and records every request.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, number[]>();
  private readonly delays = new Map<string, number | (() => number)>();
  private server!: Server;
  port = 0;

  constructor(private readonly tls: { certFile: string; keyFile: string }) {}

  /** What a stack's dispatcher needs to deliver here: private targets allowed, this certificate trusted. */
  dispatcherEnv(): { WEBHOOK_ALLOW_PRIVATE_TARGETS: string; WEBHOOK_CA_FILE: string } {
    return { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_CA_FILE: this.tls.certFile };
  }

  async start(): Promise<void> {
    this.server = createServer(
      { cert: readFileSync(this.tls.certFile), key: readFileSync(this.tls.keyFile) },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          const path = req.url ?? '/';
          this.received.push({
            path,
            headers: req.headers as Record<string, string>,
            body: Buffer.concat(chunks).toString('utf8'),
            at: Date.now(),
          });
          const script = this.scripts.get(path) ?? [200];
          const status = script.length > 1 ? script.shift()! : script[0];
          const respond = () => {
            if (status === 429 || status === 503) res.setHeader('Retry-After', '1');
            res.writeHead(status, { 'content-type': 'text/plain' });
            res.end(status < 300 ? 'ok' : 'nope');
          };
          const delayOf = this.delays.get(path) ?? 0;
          const delay = typeof delayOf === 'number' ? delayOf : delayOf();
          if (delay > 0) setTimeout(respond, delay);
          else respond();
        });
      },
    );
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  url(path: string): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  /**
   * Status codes `path` answers with, in order; the last one repeats. Each answer waits `delayMs` (or what it returns
   * when asked).
   */
  script(path: string, statuses: number[], delayMs: number | (() => number) = 0): void {
    this.scripts.set(path, [...statuses]);
    this.delays.set(path, delayMs);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections?.();
    await new Promise((r) => this.server.close(r));
  }
}
