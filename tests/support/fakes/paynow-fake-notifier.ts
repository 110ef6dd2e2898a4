import { type WireFields, encodeWire } from './paynow-fake-wire';

/** One POST of a status update to a result URL, and what came back. */
export interface NotificationAttempt {
  reference: string;
  status: string;
  /** 1 for the first try of a delivery, up to `maxAttempts`. */
  attempt: number;
  url: string;
  body: string;
  /** The HTTP status the result URL answered, or null when it gave none (connection error, timeout). */
  httpStatus: number | null;
  error: string | null;
  at: number;
}

export interface NotifierOptions {
  /** Tries per status update in all (docs: "resend the status update up to ten times before desisting"). */
  maxAttempts: number;
  retryIntervalMs: number;
  timeoutMs: number;
}

/**
 * Delivers status updates as Paynow does: a form POST to the result URL; a non-2xx answer or no
 * answer is tried again, `maxAttempts` times in all, then dropped.
 */
export class Notifier {
  readonly attempts: NotificationAttempt[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(private readonly options: NotifierOptions) {}

  /** One try only: a forged or duplicated update. */
  async sendOnce(url: string, fields: WireFields): Promise<NotificationAttempt> {
    return this.post(url, fields, 1);
  }

  /** Starts a delivery with retries (tracked by `idle`). */
  deliver(url: string, fields: WireFields): void {
    const run = (async () => {
      for (let attempt = 1; attempt <= this.options.maxAttempts && !this.abort.signal.aborted; attempt++) {
        const result = await this.post(url, fields, attempt);
        if (result.httpStatus !== null && result.httpStatus >= 200 && result.httpStatus < 300) return;
        if (attempt < this.options.maxAttempts) await this.pause(this.options.retryIntervalMs);
      }
    })();
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  /** Resolves once no delivery is running (those started meanwhile included). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  stop(): void {
    this.abort.abort();
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.abort.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }

  private async post(url: string, fields: WireFields, attempt: number): Promise<NotificationAttempt> {
    const body = encodeWire(fields);
    const get = (k: string) => fields.find(([key]) => key === k)?.[1] ?? '';
    const record: NotificationAttempt = {
      reference: get('reference'),
      status: get('status'),
      attempt,
      url,
      body,
      httpStatus: null,
      error: null,
      at: Date.now(),
    };
    try {
      const res = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs), this.abort.signal]),
      });
      await res.arrayBuffer().catch(() => undefined);
      record.httpStatus = res.status;
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause;
      record.error = cause?.code ?? (err as Error).name ?? 'error';
    }
    this.attempts.push(record);
    return record;
  }
}
