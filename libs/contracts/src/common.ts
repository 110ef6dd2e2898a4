export type Mode = 'test' | 'live';
export const MODES: readonly Mode[] = ['test', 'live'];
export type KeyType = 'secret' | 'public';
