import { PasswordCheckBusy, dummyHash, hashPassword, verifyPassword } from './passwords';

describe('dashboard passwords (scrypt)', () => {
  it('hashes with a random salt and the parameters stored beside it', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('accepts the password and refuses any other', async () => {
    const stored = await hashPassword('correct horse battery staple');
    await expect(verifyPassword('correct horse battery staple', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse battery stapl', stored)).resolves.toBe(false);
    await expect(verifyPassword('', stored)).resolves.toBe(false);
  });

  it('refuses a stored value that is not one of its hashes, and parameters that would exhaust memory', async () => {
    await expect(verifyPassword('x', 'plain')).resolves.toBe(false);
    await expect(verifyPassword('x', 'scrypt$1099511627776$8$1$AAAA$AAAAAAAAAAAAAAAAAAAAAA')).resolves.toBe(false);
    await expect(verifyPassword('x', 'scrypt$32768$8$1$AAAA$AA')).resolves.toBe(false);
  });

  it('has a dummy hash that no password opens, made once', async () => {
    const d = await dummyHash();
    expect(await dummyHash()).toBe(d);
    await expect(verifyPassword('', d)).resolves.toBe(false);
  });

  it('runs two hashes at once and queues 32; past that it answers 503 at once, and every slot comes back', async () => {
    const stored = await hashPassword('correct horse battery staple');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () => verifyPassword('wrong horse battery staple', stored)),
    );
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused).toHaveLength(6);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(PasswordCheckBusy);
    expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value === false)).toHaveLength(34);
    // Afterwards the queue is empty again: a full round is accepted.
    const again = await Promise.allSettled(Array.from({ length: 34 }, () => verifyPassword('x', stored)));
    expect(again.every((o) => o.status === 'fulfilled')).toBe(true);
  }, 60_000);

  it('does not keep a dummy hash refused while the hashes were busy', async () => {
    // A module of its own: no dummy hash made yet.
    let fresh!: typeof import('./passwords');
    jest.isolateModules(() => {
      fresh = jest.requireActual<typeof import('./passwords')>('./passwords');
    });
    const stored = await fresh.hashPassword('correct horse battery staple');
    // Fill the two running slots and the 32 waiting ones, then ask for the dummy hash: refused.
    const busy = Array.from({ length: 34 }, () => fresh.verifyPassword('x', stored));
    await expect(fresh.dummyHash()).rejects.toThrow('too many sign-ins at once');
    await Promise.all(busy);
    // Made again once there is room, not the refusal kept.
    await expect(fresh.verifyPassword('', await fresh.dummyHash())).resolves.toBe(false);
  }, 60_000);
});
