import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { ConnectionProvider, Mode } from '@payments/contracts';
import { TransactionServiceConfig, decodeCredentialsKey } from '../config/transaction.config';

/** Whose credentials a sealed value holds: bound to it as additional authenticated data. */
export interface CredentialScope {
  businessId: number;
  mode: Mode;
  provider: ConnectionProvider;
}

/** Used only when NODE_ENV=development and PROVIDER_CREDENTIALS_KEY is empty; every other environment sets a key. */
export const DEVELOPMENT_CREDENTIALS_KEY = createHash('sha256')
  .update('development-only provider credentials key, not for production')
  .digest();

/** Version tag of the sealed format: `pc1.<key id>.<iv>.<ciphertext>.<tag>`, each part base64url. */
const FORMAT = 'pc1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value that cannot be opened: unknown key, altered, or sealed for another scope. Never names its content. */
export class CredentialsUnreadable extends Error {
  constructor(reason: string) {
    super(`provider credentials cannot be decrypted: ${reason}`);
    this.name = 'CredentialsUnreadable';
  }
}

/** A key's id: the first 8 hex characters of a hash of it, so a sealed value names its key without revealing it. */
export function credentialsKeyId(key: Buffer): string {
  return createHash('sha256').update('payments provider-credentials key id\n').update(key).digest('hex').slice(0, 8);
}

function aad({ businessId, mode, provider }: CredentialScope): Buffer {
  return Buffer.from(`provider_connections\n${businessId}\n${mode}\n${provider}`, 'utf8');
}

/**
 * AES-256-GCM for provider credentials at rest, with a random IV and the business, mode and provider as authenticated
 * data, so a value copied to another row does not open. Values sealed with an older key (PROVIDER_CREDENTIALS_OLD_KEYS)
 * still open, so keys can be rotated.
 */
export class CredentialsCipher {
  private readonly keys = new Map<string, Buffer>();
  readonly keyId: string;

  constructor(current: Buffer, older: Buffer[] = []) {
    for (const key of [current, ...older]) {
      if (key.length !== 32) throw new Error('a provider credentials key must be 32 bytes');
      if (!this.keys.has(credentialsKeyId(key))) this.keys.set(credentialsKeyId(key), key);
    }
    this.keyId = credentialsKeyId(current);
  }

  static fromConfig(
    config: Pick<TransactionServiceConfig, 'NODE_ENV' | 'PROVIDER_CREDENTIALS_KEY' | 'PROVIDER_CREDENTIALS_OLD_KEYS'>,
  ): CredentialsCipher {
    const current = config.PROVIDER_CREDENTIALS_KEY
      ? decodeCredentialsKey(config.PROVIDER_CREDENTIALS_KEY)
      : config.NODE_ENV === 'development'
        ? DEVELOPMENT_CREDENTIALS_KEY
        : undefined;
    if (!current) throw new Error('PROVIDER_CREDENTIALS_KEY is not set to the base64 of 32 bytes');
    const older = config.PROVIDER_CREDENTIALS_OLD_KEYS.split(',')
      .filter((k) => k.trim() !== '')
      .map((k) => decodeCredentialsKey(k));
    if (older.some((k) => !k))
      throw new Error('PROVIDER_CREDENTIALS_OLD_KEYS holds a value that is not the base64 of 32 bytes');
    return new CredentialsCipher(current, older as Buffer[]);
  }

  /** The ids of the keys accepted for decryption only (not the current one). */
  get olderKeyIds(): string[] {
    return [...this.keys.keys()].filter((id) => id !== this.keyId);
  }

  seal(credentials: Readonly<Record<string, string>>, scope: CredentialScope): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.keyId)!, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(scope));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
    return [
      FORMAT,
      this.keyId,
      iv.toString('base64url'),
      ciphertext.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.');
  }

  open(sealed: string, scope: CredentialScope): Record<string, string> {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== FORMAT) throw new CredentialsUnreadable('not a sealed value');
    const [, keyId, ivText, ciphertextText, tagText] = parts;
    const key = this.keys.get(keyId);
    if (!key)
      throw new CredentialsUnreadable(
        `sealed with key ${keyId}, which is neither PROVIDER_CREDENTIALS_KEY nor one of PROVIDER_CREDENTIALS_OLD_KEYS`,
      );
    const iv = Buffer.from(ivText, 'base64url');
    const tag = Buffer.from(tagText, 'base64url');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new CredentialsUnreadable('malformed');
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(scope));
    decipher.setAuthTag(tag);
    let plaintext: Buffer;
    try {
      plaintext = Buffer.concat([decipher.update(Buffer.from(ciphertextText, 'base64url')), decipher.final()]);
    } catch {
      // GCM's tag check: the value was altered, or sealed for another business, mode or provider.
      throw new CredentialsUnreadable(
        'it does not authenticate (altered, or sealed for another business, mode or provider)',
      );
    }
    return JSON.parse(plaintext.toString('utf8')) as Record<string, string>;
  }

  /** The id of the key a sealed value names (undefined when it is not a sealed value). */
  static keyIdOf(sealed: string): string | undefined {
    const parts = sealed.split('.');
    return parts.length === 5 && parts[0] === FORMAT ? parts[1] : undefined;
  }
}
