import type { FormFields } from './ozow-fake-rules';

/** One POST of a notification (payment or refund) to a notify URL, and what came back. */
export interface OzowNotificationAttempt {
  kind: 'payment' | 'refund';
  /** TransactionReference (payment) or RefundId (refund). */
  key: string;
  status: string;
  attempt: number;
  url: string;
  body: string;
  httpStatus: number | null;
  error: string | null;
  at: number;
}

function encode(fields: FormFields): string {
  return new URLSearchParams(fields).toString();
}

/**
 * Posts notifications server-to-server as a form; a non-2xx answer or no answer is tried again,
 * `maxAttempts` times in all (Ozow does not publish its retry policy: the fake's choice).
 */
export class OzowNotifier {
  readonly attempts: OzowNotificationAttempt[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(private readonly options: { maxAttempts: number; retryIntervalMs: number; timeoutMs: number }) {}

  sendOnce(kind: 'payment' | 'refund', url: string, fields: FormFields): Promise<OzowNotificationAttempt> {
    return this.post(kind, url, fields, 1);
  }

  /** Starts a delivery with retries, after `after` settled if given (a final status after the Pending one). */
  deliver(kind: 'payment' | 'refund', url: string, fields: FormFields, after?: Promise<unknown>): Promise<void> {
    const run = (async () => {
      if (after) await after.catch(() => undefined);
      for (let attempt = 1; attempt <= this.options.maxAttempts && !this.abort.signal.aborted; attempt++) {
        const result = await this.post(kind, url, fields, attempt);
        if (result.httpStatus !== null && result.httpStatus >= 200 && result.httpStatus < 300) return;
        if (attempt < this.options.maxAttempts) await this.pause(this.options.retryIntervalMs);
      }
    })();
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
    return run;
  }

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

  private async post(
    kind: 'payment' | 'refund',
    url: string,
    fields: FormFields,
    attempt: number,
  ): Promise<OzowNotificationAttempt> {
    const body = encode(fields);
    const get = (k: string) => fields.find(([key]) => key === k)?.[1] ?? '';
    const record: OzowNotificationAttempt = {
      kind,
      key: kind === 'payment' ? get('TransactionReference') : get('RefundId'),
      status: get('Status'),
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
