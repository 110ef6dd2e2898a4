import { readFileSync } from 'node:fs';
import { ALL_APPS, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import type { Report } from './report';

function rssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU time (user + system) a process has used so far, in ms. */
export function cpuMs(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

const STABLE_SAMPLES = 4;
const STABLE_INTERVAL_MS = 500;
const STABLE_MB = 1;

/** (d) RSS per service: now (idle) and the peak sampled while `start()` … `stop()` runs (loaded). */
export class MemorySampler {
  private readonly peak = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly stack: Stack) {}

  /**
   * Resolves once every service's RSS has held within STABLE_MB over STABLE_SAMPLES samples
   * STABLE_INTERVAL_MS apart (start-up allocations done), or after 60 s with a warning.
   */
  async settle(): Promise<void> {
    const history = new Map<string, number[]>();
    const stable = () =>
      ALL_APPS.every((app) => {
        const h = [...(history.get(app) ?? []), rssMb(this.stack.app(app).child.pid)].slice(-STABLE_SAMPLES);
        history.set(app, h);
        return h.length === STABLE_SAMPLES && Math.max(...h) - Math.min(...h) <= STABLE_MB;
      });
    await waitFor('idle RSS to settle', stable, { timeoutMs: 60_000, intervalMs: STABLE_INTERVAL_MS }).catch(
      (err: Error) => console.warn(`${err.message}; sampling idle RSS anyway`),
    );
  }

  idle(report: Report): void {
    for (const app of ALL_APPS) {
      report.add({
        section: 'memory idle',
        name: `${app} RSS`,
        value: rssMb(this.stack.app(app).child.pid),
        unit: 'MB',
        target: { op: '<=', value: 120 },
      });
    }
  }

  start(): void {
    this.timer = setInterval(() => {
      for (const app of ALL_APPS)
        this.peak.set(app, Math.max(this.peak.get(app) ?? 0, rssMb(this.stack.app(app).child.pid) || 0));
    }, 250);
  }

  stop(report: Report): void {
    clearInterval(this.timer);
    for (const app of ALL_APPS)
      report.add({ section: 'memory loaded', name: `${app} peak RSS`, value: this.peak.get(app) ?? NaN, unit: 'MB' });
  }
}
