import { IsInt, IsString, Matches, Max, Min, Validate, ValidateIf, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { PORT_RULE, ServiceConfig } from '@payments/config';

export const DURATION = /^\d+(ms|s|m|h|d)?$/;

/** A 256-bit key as configured: standard or URL-safe base64 of exactly 32 bytes. */
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/;

/** The 32 bytes of a configured key, or undefined when the text is not the base64 of 32 bytes. */
export function decodeCredentialsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!BASE64_KEY.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === 32 ? key : undefined;
}

const KEY_RULE = {
  message: '$property must be the base64 of 32 random bytes (required unless NODE_ENV=development; `npm run up` generates one)',
};

@ValidatorConstraint({ name: 'credentialsKey' })
class CredentialsKey implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && decodeCredentialsKey(value) !== undefined;
  }
}

@ValidatorConstraint({ name: 'credentialsKeyList' })
class CredentialsKeyList implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && value.split(',').every((k) => decodeCredentialsKey(k) !== undefined);
  }
}

/** transaction-service settings; property name = environment variable name. */
export class TransactionServiceConfig extends ServiceConfig {
  override DATABASE_NAME = 'payments_transactions';

  @IsInt(PORT_RULE) @Min(1, PORT_RULE) @Max(65535, PORT_RULE)
  override RPC_PORT = 4001;

  @IsInt(PORT_RULE) @Min(1, PORT_RULE) @Max(65535, PORT_RULE)
  override HTTP_PORT = 4101;

  /** How long the test-mode sandbox takes to settle a mobile-money payment or a refund. */
  @IsInt() @Min(0) @Max(3_600_000)
  SANDBOX_SETTLE_MS = 3_000;

  /** A pending transaction not paid within this time fails as expired: `900`, `90s`, `30m`, `2h`, `1d`. */
  @Matches(DURATION, { message: '$property must be a duration such as 30m, 2h, 900s or 900 (seconds)' })
  TRANSACTION_EXPIRY = '30m';

  /** Fee schedule per payment_method_code: `code=bps+fixed,…` (docs/decisions/fees.md). */
  @IsString()
  FEE_SCHEDULE = 'ecocash=150+0,innbucks=100+0,zimswitch=250+0,dpo=350+0,ozow=200+0,default=250+0';

  @IsInt() @Min(10) @Max(60_000)
  SCHEDULER_POLL_INTERVAL_MS = 100;

  /**
   * Initialize inserts in flight at once before new ones wait and go together in one statement
   * (group commit; docs/decisions/0013-group-commit-of-initialize.md). Below DATABASE_POOL_SIZE, so
   * the relay and reads keep connections.
   */
  @IsInt() @Min(1) @Max(64)
  INITIALIZE_INSERTS_IN_FLIGHT = 2;

  /** Most transactions in one grouped insert statement. */
  @IsInt() @Min(1) @Max(1000)
  INITIALIZE_BATCH_MAX = 100;

  /**
   * Encrypts the businesses' provider credentials at rest (AES-256-GCM; docs/security.md). Required
   * outside development, where a fixed development key stands in when it is empty.
   */
  @ValidateIf((o: TransactionServiceConfig) => o.NODE_ENV !== 'development' || o.PROVIDER_CREDENTIALS_KEY !== '')
  @Validate(CredentialsKey, KEY_RULE)
  PROVIDER_CREDENTIALS_KEY = '';

  /** During a rotation: earlier keys (comma-separated), accepted for decryption only. */
  @ValidateIf((o: TransactionServiceConfig) => o.PROVIDER_CREDENTIALS_OLD_KEYS !== '')
  @Validate(CredentialsKeyList, { message: '$property must be a comma-separated list of keys, each the base64 of 32 bytes' })
  PROVIDER_CREDENTIALS_OLD_KEYS = '';
}

export function durationMs(text: string): number {
  const m = DURATION.exec(text);
  if (!m) throw new Error(`bad duration ${text}`);
  const n = Number.parseInt(text, 10);
  const unit = m[1] ?? 's';
  const factor = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit] ?? 1_000;
  return n * factor;
}
