import { randomBytes } from 'node:crypto';
import { loadConfig } from '@payments/config';
import { TransactionServiceConfig } from '../config/transaction.config';
import {
  CredentialsCipher,
  CredentialsUnreadable,
  DEVELOPMENT_CREDENTIALS_KEY,
  credentialsKeyId,
  type CredentialScope,
} from './credentials-cipher';

const PAYNOW = { integration_id: '1201', integration_key: '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977' };
const SCOPE: CredentialScope = { businessId: 7, mode: 'live', provider: 'paynow' };

/** Flips one bit of the part at `index` (2 iv, 3 ciphertext, 4 tag) of a sealed value. */
function tamper(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index], 'base64url');
  bytes[0] ^= 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('CredentialsCipher', () => {
  const key = randomBytes(32);
  const cipher = new CredentialsCipher(key);

  it('opens what it sealed: the same credentials, for the same business, mode and provider', () => {
    const sealed = cipher.seal(PAYNOW, SCOPE);
    expect(cipher.open(sealed, SCOPE)).toEqual(PAYNOW);
    expect(cipher.open(cipher.seal({ ...PAYNOW, integration_key: 'ключ-🔑' }, SCOPE), SCOPE)).toEqual({
      ...PAYNOW,
      integration_key: 'ключ-🔑',
    });
  });

  it('writes no plaintext: a versioned value naming its key, with a fresh 12-byte IV each time', () => {
    const a = cipher.seal(PAYNOW, SCOPE);
    const b = cipher.seal(PAYNOW, SCOPE);
    expect(a).not.toBe(b);
    for (const value of Object.values(PAYNOW)) expect(a).not.toContain(value);
    const [format, keyId, iv, ciphertext, tag] = a.split('.');
    expect({ format, keyId }).toEqual({ format: 'pc1', keyId: credentialsKeyId(key) });
    expect(Buffer.from(iv, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag, 'base64url')).toHaveLength(16);
    expect(Buffer.from(ciphertext, 'base64url').length).toBe(JSON.stringify(PAYNOW).length);
    expect(b.split('.')[2]).not.toBe(iv);
    expect(CredentialsCipher.keyIdOf(a)).toBe(cipher.keyId);
  });

  it.each([
    ['the IV', 2],
    ['the ciphertext', 3],
    ['the tag', 4],
  ])('refuses a value whose %s was altered', (_part, index) => {
    const sealed = cipher.seal(PAYNOW, SCOPE);
    expect(() => cipher.open(tamper(sealed, index), SCOPE)).toThrow(CredentialsUnreadable);
  });

  it('refuses a truncated tag, a changed key id and what is not a sealed value', () => {
    const sealed = cipher.seal(PAYNOW, SCOPE);
    const parts = sealed.split('.');
    expect(() => cipher.open([...parts.slice(0, 4), parts[4].slice(0, 8)].join('.'), SCOPE)).toThrow(/malformed/);
    expect(() => cipher.open([parts[0], 'ffffffff', ...parts.slice(2)].join('.'), SCOPE)).toThrow(
      /sealed with key ffffffff/,
    );
    expect(() => cipher.open(JSON.stringify(PAYNOW), SCOPE)).toThrow(/not a sealed value/);
  });

  it.each([
    ['another business', { ...SCOPE, businessId: 8 }],
    ['the other mode', { ...SCOPE, mode: 'test' }],
    ['another provider', { ...SCOPE, provider: 'dpo' }],
  ] as const)('refuses to open credentials moved to %s (wrong additional data)', (_what, scope) => {
    const sealed = cipher.seal(PAYNOW, SCOPE);
    expect(() => cipher.open(sealed, scope)).toThrow(/does not authenticate/);
  });

  it('never puts the credentials in its errors', () => {
    const sealed = cipher.seal(PAYNOW, SCOPE);
    for (const bad of [tamper(sealed, 3), sealed]) {
      try {
        new CredentialsCipher(randomBytes(32)).open(bad, { ...SCOPE, businessId: 9 });
        throw new Error('expected a refusal');
      } catch (err) {
        expect(err).toBeInstanceOf(CredentialsUnreadable);
        for (const value of Object.values(PAYNOW)) expect(String((err as Error).message)).not.toContain(value);
      }
    }
  });

  describe('key rotation', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = new CredentialsCipher(oldKey);
    const during = new CredentialsCipher(newKey, [oldKey]);
    const after = new CredentialsCipher(newKey);

    it('opens values sealed with an old key while it is configured as one', () => {
      const sealedBefore = before.seal(PAYNOW, SCOPE);
      expect(during.open(sealedBefore, SCOPE)).toEqual(PAYNOW);
      expect(() => after.open(sealedBefore, SCOPE)).toThrow(
        /neither PROVIDER_CREDENTIALS_KEY nor one of PROVIDER_CREDENTIALS_OLD_KEYS/,
      );
    });

    it('seals new values with the current key only', () => {
      const sealed = during.seal(PAYNOW, SCOPE);
      expect(CredentialsCipher.keyIdOf(sealed)).toBe(credentialsKeyId(newKey));
      expect(during.keyId).toBe(credentialsKeyId(newKey));
      expect(during.olderKeyIds).toEqual([credentialsKeyId(oldKey)]);
      expect(after.open(sealed, SCOPE)).toEqual(PAYNOW);
      expect(() => before.open(sealed, SCOPE)).toThrow(CredentialsUnreadable);
    });

    it('ignores an old key equal to the current one', () => {
      expect(new CredentialsCipher(newKey, [newKey]).olderKeyIds).toEqual([]);
    });
  });

  describe('from the configuration', () => {
    const b64 = (k: Buffer) => k.toString('base64');

    it('uses PROVIDER_CREDENTIALS_KEY and accepts PROVIDER_CREDENTIALS_OLD_KEYS (standard or URL-safe base64)', () => {
      const current = randomBytes(32);
      const old = [randomBytes(32), randomBytes(32)];
      const config = loadConfig(TransactionServiceConfig, {
        NODE_ENV: 'production',
        INTERNAL_RPC_SECRET: 'x'.repeat(32),
        PROVIDER_CREDENTIALS_KEY: b64(current),
        PROVIDER_CREDENTIALS_OLD_KEYS: `${b64(old[0])}, ${old[1].toString('base64url')}`,
      });
      const fromConfig = CredentialsCipher.fromConfig(config);
      expect(fromConfig.keyId).toBe(credentialsKeyId(current));
      expect(fromConfig.olderKeyIds).toEqual(old.map(credentialsKeyId));
      expect(fromConfig.open(new CredentialsCipher(old[1]).seal(PAYNOW, SCOPE), SCOPE)).toEqual(PAYNOW);
    });

    it('falls back to the development key only in development', () => {
      expect(CredentialsCipher.fromConfig(loadConfig(TransactionServiceConfig, {})).keyId).toBe(
        credentialsKeyId(DEVELOPMENT_CREDENTIALS_KEY),
      );
      expect(() =>
        CredentialsCipher.fromConfig({
          NODE_ENV: 'production',
          PROVIDER_CREDENTIALS_KEY: '',
          PROVIDER_CREDENTIALS_OLD_KEYS: '',
        }),
      ).toThrow(/PROVIDER_CREDENTIALS_KEY/);
    });
  });
});
