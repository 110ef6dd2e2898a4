/** `--name value` and `--flag` options after the command words. */
export interface Parsed {
  words: string[];
  options: Record<string, string | true>;
}

export function parseArgs(argv: string[]): Parsed {
  const words: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [key, inline] = a.slice(2).split('=', 2);
      if (inline !== undefined) options[key] = inline;
      else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) options[key] = argv[++i];
      else options[key] = true;
    } else {
      words.push(a);
    }
  }
  return { words, options };
}

export class UsageError extends Error {}

export function required(p: Parsed, name: string): string {
  const v = p.options[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

/** A text progress bar: [#######-----] 58 % (7/12) */
export function progressBar(done: number, total: number, width = 30): string {
  const ratio = total === 0 ? 1 : Math.min(1, Math.max(0, done / total));
  const filled = Math.round(ratio * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)} % (${done}/${total})`;
}
