import { signingSecrets } from './signature';

describe('signingSecrets', () => {
  const now = new Date('2026-01-01T00:00:00Z');

  it('signs with the current secret only when no roll is in its grace period', () => {
    expect(signingSecrets({ secret: 'new', previous_secret: null, previous_secret_expires_at: null }, now)).toEqual([
      'new',
    ]);
    expect(
      signingSecrets(
        { secret: 'new', previous_secret: 'old', previous_secret_expires_at: new Date('2025-12-31T23:59:59Z') },
        now,
      ),
    ).toEqual(['new']);
  });

  it('adds the previous secret until it expires', () => {
    expect(
      signingSecrets(
        { secret: 'new', previous_secret: 'old', previous_secret_expires_at: new Date('2026-01-01T00:00:01Z') },
        now,
      ),
    ).toEqual(['new', 'old']);
  });
});
