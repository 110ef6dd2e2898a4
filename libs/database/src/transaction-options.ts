/** How a transaction begins (DataSource.transaction): its isolation level and its own settings. */

export type IsolationLevel = 'READ UNCOMMITTED' | 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

const ISOLATION_LEVELS: readonly IsolationLevel[] = [
  'READ UNCOMMITTED',
  'READ COMMITTED',
  'REPEATABLE READ',
  'SERIALIZABLE',
];

function isolationLevel(level: string): IsolationLevel {
  const found = ISOLATION_LEVELS.find((l) => l === level.toUpperCase());
  if (!found) throw new Error(`unknown transaction isolation level: ${level}`);
  return found;
}

/** How a transaction begins: its isolation level, and settings that last until it ends. */
export interface TransactionOptions {
  isolation?: IsolationLevel;
  /**
   * Run-time settings for this transaction only (`SET LOCAL`), sent with BEGIN, e.g. `{ enable_bitmapscan: 'off' }`:
   * no round trip of their own. Names and values are constants of the code, checked before anything is sent.
   */
  settings?: Record<string, string>;
}

const SETTING_NAME = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;
/** Sent quoted: no quote can occur in one. */
const SETTING_VALUE = /^[A-Za-z0-9_.-]+$/;

/** BEGIN and the SET LOCAL of each setting: what opens a transaction with these options. */
export function openingStatements(options: TransactionOptions): string[] {
  const begin = options.isolation ? `BEGIN ISOLATION LEVEL ${isolationLevel(options.isolation)}` : 'BEGIN';
  const settings = Object.entries(options.settings ?? {}).map(([name, value]) => {
    if (!SETTING_NAME.test(name) || !SETTING_VALUE.test(value))
      throw new Error(`refused transaction setting ${JSON.stringify(name)} = ${JSON.stringify(value)}`);
    return `SET LOCAL ${name} = '${value}'`;
  });
  return [begin, ...settings];
}
