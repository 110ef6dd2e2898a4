import { writeApi3g } from './dpo-fake-wire';

/** One POST of a push, and what came back. */
export interface PushAttempt {
  token: string;
  companyRef: string;
  /** 1 for the first try of a delivery. */
  attempt: number;
  url: string;
  body: string;
  /** The HTTP status, or null when there was none (connection error, timeout). */
  httpStatus: number | null;
  /** The answer's body (trimmed, first 200 characters), or null. */
  answer: string | null;
  /** Whether the answer was DPO's expected `OK`. */
  ok: boolean;
  error: string | null;
  at: number;
}

export interface PusherOptions {
  maxAttempts: number;
  retryIntervalMs: number;
  timeoutMs: number;
}

/** `OK` as plain text (DPO's WooCommerce plugin) or `<API3G><Response>OK</Response></API3G>` (a Node SDK). */
export function isOk(answer: string): boolean {
  const t = answer.trim();
  return t === 'OK' || /^(<\?xml[^>]*\?>\s*)?<API3G>\s*<Response>\s*OK\s*<\/Response>\s*<\/API3G>$/.test(t);
}

/**
 * Posts pushes as DPO does after a successful payment: unsigned API3G XML; an answer other than a 2xx `OK` (or none) is
 * tried again, `maxAttempts` times in all. DPO documents the `OK` but not its retries: the fake's count is an option.
 */
export class Pusher {
  readonly attempts: PushAttempt[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(private readonly options: PusherOptions) {}

  sendOnce(url: string, fields: ReadonlyArray<readonly [string, string]>): Promise<PushAttempt> {
    return this.post(url, fields, 1);
  }

  deliver(url: string, fields: ReadonlyArray<readonly [string, string]>): void {
    const run = (async () => {
      for (let attempt = 1; attempt <= this.options.maxAttempts && !this.abort.signal.aborted; attempt++) {
        if ((await this.post(url, fields, attempt)).ok) return;
        if (attempt < this.options.maxAttempts) await this.pause(this.options.retryIntervalMs);
      }
    })();
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
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
    url: string,
    fields: ReadonlyArray<readonly [string, string]>,
    attempt: number,
  ): Promise<PushAttempt> {
    const body = writeApi3g(fields);
    const get = (k: string) => fields.find(([key]) => key === k)?.[1] ?? '';
    const record: PushAttempt = {
      token: get('TransactionToken'),
      companyRef: get('CompanyRef'),
      attempt,
      url,
      body,
      httpStatus: null,
      answer: null,
      ok: false,
      error: null,
      at: Date.now(),
    };
    try {
      const res = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/xml' },
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs), this.abort.signal]),
      });
      const text = await res.text().catch(() => '');
      record.httpStatus = res.status;
      record.answer = text.trim().slice(0, 200);
      record.ok = res.status >= 200 && res.status < 300 && isOk(text);
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause;
      record.error = cause?.code ?? (err as Error).name ?? 'error';
    }
    this.attempts.push(record);
    return record;
  }
}
