import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { ConnectionKeyRotation } from './connection-key-rotation';
import type { ConnectionStore } from './connection-store';
import { CredentialsCipher } from './credentials-cipher';

type Batch = Awaited<ReturnType<ConnectionStore['resealBatch']>>;

/** A store whose batches are scripted; records where each batch started. */
function fakeStore(batches: Batch[]) {
  const starts: string[] = [];
  const store = {
    currentKeyId: 'k1',
    resealBatch: async (afterId: string, limit: number): Promise<Batch> => {
      expect(limit).toBe(100);
      starts.push(afterId);
      return batches.shift() ?? { resealed: 0, unreadable: 0, lastId: null };
    },
  };
  return { store: store as unknown as ConnectionStore, starts };
}

function logger() {
  const lines: { level: string; fields: unknown; message: string }[] = [];
  const log = (level: string) => (fields: unknown, message: string) => lines.push({ level, fields, message });
  return { logger: { info: log('info'), error: log('error'), warn: log('warn') } as unknown as Logger, lines };
}

describe('ConnectionKeyRotation', () => {
  const rotating = new CredentialsCipher(randomBytes(32), [randomBytes(32)]);

  it('walks the rows under old keys batch by batch, then starts the next pass from the first row', async () => {
    const { store, starts } = fakeStore([
      { resealed: 100, unreadable: 0, lastId: '140' },
      { resealed: 98, unreadable: 2, lastId: '260' },
      { resealed: 7, unreadable: 0, lastId: '301' },
    ]);
    const { logger: log, lines } = logger();
    const rotation = new ConnectionKeyRotation(store, rotating, log);
    expect([await rotation.tick(), await rotation.tick(), await rotation.tick(), await rotation.tick()]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(starts).toEqual(['0', '140', '260', '0']);
    // A pass that met rows it could not open says so, and does not claim to be done.
    expect(lines).toEqual([
      { level: 'error', fields: { resealed: 205, unreadable: 2 }, message: expect.stringContaining('do not decrypt') },
      expect.objectContaining({ level: 'info' }),
    ]);
  });

  it('says once when no row is left under an old key, and again only after it sealed more', async () => {
    const { store } = fakeStore([
      { resealed: 3, unreadable: 0, lastId: '9' },
      { resealed: 0, unreadable: 0, lastId: null },
      { resealed: 1, unreadable: 0, lastId: '12' },
    ]);
    const { logger: log, lines } = logger();
    const rotation = new ConnectionKeyRotation(store, rotating, log);
    for (let i = 0; i < 4; i++) await rotation.tick();
    expect(lines).toEqual([
      {
        level: 'info',
        fields: { resealed: 3, key_id: 'k1' },
        message: expect.stringContaining('none left under PROVIDER_CREDENTIALS_OLD_KEYS'),
      },
      {
        level: 'info',
        fields: { resealed: 1, key_id: 'k1' },
        message: expect.stringContaining('none left under PROVIDER_CREDENTIALS_OLD_KEYS'),
      },
    ]);
  });

  it('does not run without old keys', async () => {
    const { store, starts } = fakeStore([]);
    const rotation = new ConnectionKeyRotation(store, new CredentialsCipher(randomBytes(32)), logger().logger);
    rotation.onApplicationBootstrap();
    await rotation.beforeApplicationShutdown();
    expect(starts).toEqual([]);
  });
});
