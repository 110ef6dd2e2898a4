import { SingleBar, Presets } from 'cli-progress';

export interface ProgressOptions {
  /** What is counted (e.g. 'events'): the rate and the time left are shown. Without it, neither. */
  unit?: string;
  out?: NodeJS.WriteStream;
  /** Off a terminal: one line at most this often. */
  lineEveryMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** 75 → "1:15", 3725 → "1:02:05". */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(r)}` : `${m}:${pad(r)}`;
}

/**
 * A progress bar on a terminal; on anything else (a pipe, a CI log) one plain line every few
 * seconds and a last one at the end, so logs stay readable. With a unit, each shows the rate
 * since the start and the time left at that rate.
 */
export class Progress {
  private readonly bar: SingleBar | undefined;
  private readonly out: NodeJS.WriteStream;
  private readonly lineEveryMs: number;
  private readonly now: () => number;
  private readonly startedAt: number;
  /**
   * The first update that moved: the rate counts from there (connecting and joining a group are not
   * throughput, and when its work began is not known).
   */
  private first: { at: number; value: number } | undefined;
  private readonly unit: string | undefined;
  private lastLine = 0;
  private lastValue = -1;
  private value = 0;

  constructor(
    private readonly label: string,
    private total: number,
    o: ProgressOptions = {},
  ) {
    this.out = o.out ?? process.stdout;
    this.lineEveryMs = o.lineEveryMs ?? 2_000;
    this.now = o.now ?? Date.now;
    this.unit = o.unit;
    this.startedAt = this.now();
    if (this.out.isTTY) {
      this.bar = new SingleBar(
        { format: `${label} [{bar}] {percentage}% {value}/{total} {detail}`, stream: this.out, hideCursor: true },
        Presets.shades_classic,
      );
      this.bar.start(total, 0, { detail: '' });
    }
  }

  update(value: number, detail = '', total = this.total): void {
    if (!this.first && value > 0) this.first = { at: this.now(), value };
    this.value = value;
    this.total = total;
    if (this.bar) {
      this.bar.setTotal(total);
      this.bar.update(value, { detail: this.withRate(detail) });
    } else if (this.now() - this.lastLine >= this.lineEveryMs) {
      this.printLine(detail);
    }
  }

  /** The last state: on a terminal the bar's, elsewhere a last line (unless the previous line already said it). */
  stop(detail = ''): void {
    if (this.bar) {
      this.bar.update(this.value, { detail: this.withRate(detail) });
      this.bar.stop();
    } else if (this.value !== this.lastValue || detail) this.printLine(detail);
  }

  /** "12345 events/s, 0:42 left" (or "… in 0:42" once done: the whole time) before the detail. */
  private withRate(detail: string): string {
    if (!this.unit) return detail;
    const moving = this.first ? (this.now() - this.first.at) / 1000 : 0;
    const rate = moving > 0 ? (this.value - this.first!.value) / moving : 0;
    const timing =
      this.value >= this.total
        ? `in ${clock((this.now() - this.startedAt) / 1000)}`
        : rate > 0
          ? `${clock((this.total - this.value) / rate)} left`
          : 'time left unknown';
    return [`${Math.round(rate)} ${this.unit}/s, ${timing}`, detail].filter(Boolean).join('; ');
  }

  private printLine(detail: string): void {
    this.lastLine = this.now();
    this.lastValue = this.value;
    const pct = this.total === 0 ? 100 : Math.floor((100 * Math.min(this.value, this.total)) / this.total);
    const shown = this.withRate(detail);
    this.out.write(`${this.label} ${this.value}/${this.total} (${pct} %)${shown ? ` ${shown}` : ''}\n`);
  }
}
