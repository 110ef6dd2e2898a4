import { SingleBar, Presets } from 'cli-progress';

/**
 * A progress bar on a terminal; on anything else (a pipe, a CI log) one plain line every few
 * seconds and a last one at the end, so logs stay readable.
 */
export class Progress {
  private readonly bar: SingleBar | undefined;
  private lastLine = 0;
  private value = 0;

  constructor(
    private readonly label: string,
    private total: number,
    private readonly out: NodeJS.WriteStream = process.stdout,
    private readonly lineEveryMs = 2_000,
  ) {
    if (out.isTTY) {
      this.bar = new SingleBar({ format: `${label} [{bar}] {percentage}% {value}/{total} {detail}`, stream: out, hideCursor: true }, Presets.shades_classic);
      this.bar.start(total, 0, { detail: '' });
    }
  }

  update(value: number, detail = '', total = this.total): void {
    this.value = value;
    this.total = total;
    if (this.bar) {
      this.bar.setTotal(total);
      this.bar.update(value, { detail });
    } else if (Date.now() - this.lastLine >= this.lineEveryMs) {
      this.printLine(detail);
    }
  }

  stop(detail = ''): void {
    if (this.bar) this.bar.stop();
    else this.printLine(detail);
  }

  private printLine(detail: string): void {
    this.lastLine = Date.now();
    const pct = this.total === 0 ? 100 : Math.floor((100 * Math.min(this.value, this.total)) / this.total);
    this.out.write(`${this.label} ${this.value}/${this.total} (${pct} %)${detail ? ` ${detail}` : ''}\n`);
  }
}
