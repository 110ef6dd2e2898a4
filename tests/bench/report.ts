import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/infra';

export interface Figure {
  section: string;
  name: string;
  value: number;
  unit: string;
  /** `<=` or `>=` a bound; absent for context figures (the comparison server, counts). */
  target?: { op: '<=' | '>='; value: number };
  note?: string;
}

export class Report {
  readonly figures: Figure[] = [];
  readonly startedAt = new Date();
  /** Service settings the run used other than the defaults (`NAME=value`), shown with the figures. */
  overrides: string[] = [];

  add(f: Figure): void {
    this.figures.push(f);
    console.log(line(f));
  }

  machine(): { cpu: string; cores: number; memory_gib: number; node: string } {
    return {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      memory_gib: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    };
  }

  /** Writes .local/bench.json and the generated section of docs/benchmarks.md. */
  save(settings: Record<string, unknown>): void {
    const json = {
      at: this.startedAt.toISOString(),
      machine: this.machine(),
      settings,
      figures: this.figures.map((f) => ({ ...f, met: met(f) })),
    };
    mkdirSync(join(ROOT, '.local'), { recursive: true });
    writeFileSync(join(ROOT, '.local', 'bench.json'), `${JSON.stringify(json, null, 2)}\n`);
    const docs = join(ROOT, 'docs', 'benchmarks.md');
    const text = readFileSync(docs, 'utf8');
    const [begin, end] = ['<!-- bench:begin -->', '<!-- bench:end -->'];
    const i = text.indexOf(begin);
    const j = text.indexOf(end);
    if (i < 0 || j < i) throw new Error(`docs/benchmarks.md has no ${begin} … ${end} section`);
    writeFileSync(docs, `${text.slice(0, i + begin.length)}\n${this.markdown(json.machine)}\n${text.slice(j)}`);
    console.log('\nwritten: .local/bench.json, docs/benchmarks.md (generated section)');
  }

  private markdown(m: ReturnType<Report['machine']>): string {
    const rows = this.figures.map(
      (f) =>
        `| ${f.section} | ${f.name} | ${fmt(f.value)} ${f.unit} | ` +
        `${f.target ? `${f.target.op} ${fmt(f.target.value)} ${f.unit}` : ''} | ${verdict(f)} | ${f.note ?? ''} |`,
    );
    return [
      `Last \`npm run bench\`: ${this.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC ` +
        `on ${m.cores} × ${m.cpu}, ${m.memory_gib} GiB, Node ${m.node}.`,
      '',
      'Service settings other than the defaults (logging included, everything else is as deployed): ' +
        `${this.overrides.map((o) => `\`${o}\``).join(', ') || 'none'}.`,
      '',
      '| Part | Figure | Measured | Target | | Note |',
      '|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  }
}

function met(f: Figure): boolean | null {
  if (!f.target || !Number.isFinite(f.value)) return f.target ? false : null;
  return f.target.op === '<=' ? f.value <= f.target.value : f.value >= f.target.value;
}

function verdict(f: Figure): string {
  const m = met(f);
  return m === null ? '' : m ? 'met' : 'MISSED';
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return '—';
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
}

function line(f: Figure): string {
  const target = f.target ? `target ${f.target.op} ${fmt(f.target.value)} ${f.unit}` : '';
  const value = `${fmt(f.value)} ${f.unit}`.padStart(14);
  const judged = `${target.padEnd(24)} ${verdict(f).padEnd(6)}`;
  return `${f.section.padEnd(16)} ${f.name.padEnd(44)} ${value}   ${judged} ${f.note ?? ''}`;
}
