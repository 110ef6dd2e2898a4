import { createHash } from 'node:crypto';
import { MODES, type KeyType, type Mode } from '@payments/contracts';
import { randomBase62 } from '@payments/platform';

const KEY_PATTERN = new RegExp(`^(sk|pk)_(${MODES.join('|')})_[0-9A-Za-z]{32,64}$`);

export function newApiKey(type: KeyType, mode: Mode): string {
  return `${type === 'secret' ? 'sk' : 'pk'}_${mode}_${randomBase62(40)}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Mode and type as the key's prefix states them; null for anything that is not a key. */
export function parseApiKey(key: string): { type: KeyType; mode: Mode } | null {
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  return { type: m[1] === 'sk' ? 'secret' : 'public', mode: m[2] as Mode };
}

/** What may be shown of a key: its prefix and first four random characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, key.indexOf('_', 3) + 5);
}
