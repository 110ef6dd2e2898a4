import type { ApiResponse, Stack } from '../support/stack';

/** Sends one API request: through the stack's first gateway, or through a test's own balancer. */
export type ApiSender = (method: string, path: string, opts: { key: string; body: unknown }) => Promise<ApiResponse>;

interface Payment {
  reference: string;
  amount: number;
  success: boolean;
  acceptedAt: number;
  refunds: number;
}

/**
 * Steady traffic through the public API during the chaos: `rate` initializations a second (one in
 * ten asks the sandbox to fail), and refunds of succeeded payments (a third, then the rest: two
 * reversals per split entry). Failed requests (503, timeouts) are counted, not retried: the checks
 * afterwards rely only on what the API accepted.
 */
export class PaymentLoad {
  readonly accepted: Payment[] = [];
  attempts = 0;
  refundsAccepted = 0;
  readonly failures = new Map<string, number>();
  /** Prefixed to the failures counted while it is set (e.g. which restart is under way). */
  phase = '';
  private timer: NodeJS.Timeout | undefined;
  private inFlight = new Set<Promise<void>>();
  private seq = 0;

  constructor(
    private readonly stack: Stack,
    private readonly key: string,
    private readonly rate: number,
    private readonly maxInFlight = 60,
    private readonly send: ApiSender = (method, path, opts) => stack.api(method, path, opts),
  ) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), 1000 / this.rate);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.inFlight]);
  }

  private track(p: Promise<void>): void {
    const why = (err: Error) =>
      err.name === 'TimeoutError'
        ? 'timeout'
        : `${err.message} ${(err.cause as { code?: string } | undefined)?.code ?? ''}`.trim();
    const wrapped = p.catch((err: Error) => this.fail(why(err))).finally(() => this.inFlight.delete(wrapped));
    this.inFlight.add(wrapped);
  }

  private fail(why: string): void {
    const key = this.phase ? `${this.phase}: ${why}` : why;
    this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
  }

  private tick(): void {
    if (this.inFlight.size >= this.maxInFlight) return this.fail('skipped: too many requests in flight');
    this.attempts += 1;
    this.track(this.pay());
    // Every third tick, one refund of a payment that has had time to succeed.
    if (this.attempts % 3 === 0) {
      const due = this.accepted.find((p) => p.success && p.refunds < 2 && Date.now() - p.acceptedAt > 3_000);
      if (due) this.track(this.refund(due));
    }
  }

  private async pay(): Promise<void> {
    const n = ++this.seq;
    const payment = {
      reference: `chaos-${this.stack.id}-${n}`,
      amount: 1_000 + ((n * 7_919) % 49_000),
      success: n % 10 !== 0,
      acceptedAt: 0,
      refunds: 0,
    };
    const res = await this.send('POST', '/v1/transactions', {
      key: this.key,
      body: {
        amount: payment.amount,
        email: 'chaos@example.com',
        currency: 'USD',
        payment_method_code: 'ecocash',
        mobile_money_number: '0771234567',
        transaction_reference: payment.reference,
        requested_response: payment.success ? 'success' : 'failed',
      },
    });
    if (res.status !== 200) return this.fail(`initialize ${res.status} ${errorCode(res.body)}`);
    this.accepted.push({ ...payment, acceptedAt: Date.now() });
  }

  private async refund(p: Payment): Promise<void> {
    p.refunds += 1; // claimed now so the next tick picks another payment
    const third = Math.floor(p.amount / 3);
    const amount = p.refunds === 1 ? third : p.amount - third;
    const res = await this.send('POST', '/v1/transactions/refund', {
      key: this.key,
      body: { transaction_reference: p.reference, amount },
    });
    if (res.status === 200) this.refundsAccepted += 1;
    else {
      p.refunds -= 1; // not refunded (e.g. not yet successful, or a service down): try again later
      this.fail(`refund ${res.status} ${errorCode(res.body)}`);
    }
  }
}

/** The error code of an API error body (ARCHITECTURE §3), or its message. */
function errorCode(body: unknown): string {
  const b = body as { code?: unknown; message?: unknown } | null;
  return String(b?.code ?? b?.message ?? '').slice(0, 80);
}
