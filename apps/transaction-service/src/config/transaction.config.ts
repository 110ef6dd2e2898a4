import {
  IsInt,
  IsString,
  Matches,
  Max,
  Min,
  Validate,
  ValidateIf,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
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
  message:
    '$property must be the base64 of 32 random bytes ' +
    '(required unless NODE_ENV=development; `npm run up` generates one)',
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

  @IsInt(PORT_RULE)
  @Min(1, PORT_RULE)
  @Max(65535, PORT_RULE)
  override RPC_PORT = 4001;

  @IsInt(PORT_RULE)
  @Min(1, PORT_RULE)
  @Max(65535, PORT_RULE)
  override HTTP_PORT = 4101;

  /** How long the test-mode sandbox takes to settle a mobile-money payment or a refund. */
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  SANDBOX_SETTLE_MS = 3_000;

  /** A pending transaction not paid within this time fails as expired: `900`, `90s`, `30m`, `2h`, `1d`. */
  @Matches(DURATION, { message: '$property must be a duration such as 30m, 2h, 900s or 900 (seconds)' })
  TRANSACTION_EXPIRY = '30m';

  /** Fee schedule per payment_method_code: `code=bps+fixed,…` (docs/decisions/fees.md). */
  @IsString()
  FEE_SCHEDULE = 'ecocash=150+0,innbucks=100+0,zimswitch=250+0,dpo=350+0,ozow=200+0,default=250+0';

  @IsInt()
  @Min(10)
  @Max(60_000)
  SCHEDULER_POLL_INTERVAL_MS = 100;

  /**
   * The longest the scheduler sleeps when nothing is due soon (an expiry can be this much late);
   * a payment this process makes cuts the sleep short, and another replica's within this time.
   */
  @IsInt()
  @Min(10)
  @Max(60_000)
  SCHEDULER_IDLE_MAX_MS = 1_000;

  /**
   * Initialize inserts in flight at once before new ones wait and go together in one transaction
   * (group commit; docs/decisions/0013-group-commit-of-initialize.md). Below DATABASE_POOL_SIZE, so
   * the relay and reads keep connections.
   */
  @IsInt()
  @Min(1)
  @Max(64)
  INITIALIZE_INSERTS_IN_FLIGHT = 2;

  /**
   * How long a statement may run past its caller's RPC deadline before it is cancelled (rolled
   * back). Keep it well under the 5 s after which the gateway lets a retry with the same
   * Idempotency-Key run (docs/decisions/0014-deadlines-and-unknown-outcomes.md).
   */
  @IsInt()
  @Min(0)
  @Max(3_000)
  RPC_DEADLINE_MARGIN_MS = 2_000;

  /**
   * The gateway's public address as payment providers and customers' browsers reach it: status
   * updates are posted to `{PUBLIC_BASE_URL}/v1/provider-notifications/{provider}/{transaction id}`
   * and customers come back to `{PUBLIC_BASE_URL}/checkout/return?…` (docs/going-live.md).
   */
  @Matches(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, {
    message: '$property must be an http(s) URL without query or fragment',
  })
  PUBLIC_BASE_URL = 'http://127.0.0.1:3000';

  /** Paynow's API host (its own test mode runs on the same host, with the merchant's test integration). */
  @Matches(/^https?:\/\/[^\s/?#]+$/, {
    message: '$property must be an http(s) origin such as https://www.paynow.co.zw',
  })
  PAYNOW_API_URL = 'https://www.paynow.co.zw';

  /**
   * DPO Pay's host: the 3G API at `{DPO_API_URL}/API/v6/`, its payment page at `{DPO_API_URL}/payv2.php`
   * (sandbox: https://secure1.sandbox.directpay.online).
   */
  @Matches(/^https?:\/\/[^\s/?#]+$/, {
    message: '$property must be an http(s) origin such as https://secure.3gdirectpay.com',
  })
  DPO_API_URL = 'https://secure.3gdirectpay.com';

  /** Ozow's API host: payment requests, status by reference, refunds (staging: https://stagingapi.ozow.com). */
  @Matches(/^https?:\/\/[^\s/?#]+$/, { message: '$property must be an http(s) origin such as https://api.ozow.com' })
  OZOW_API_URL = 'https://api.ozow.com';

  /** Longest a call to a provider may take (always within the caller's RPC deadline). */
  @IsInt()
  @Min(500)
  @Max(60_000)
  PROVIDER_TIMEOUT_MS = 8_000;

  /** How soon a live payment without a status update is checked at its provider; doubles per check, up to 16x. */
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  PROVIDER_POLL_INTERVAL_MS = 30_000;

  /** After this long without a final answer, checks stop and an operator decides (docs/going-live.md). */
  @Matches(DURATION, { message: '$property must be a duration such as 24h' })
  PROVIDER_POLL_MAX_AGE = '24h';

  /** Most transactions in one grouped insert statement. */
  @IsInt()
  @Min(1)
  @Max(1000)
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
  @Validate(CredentialsKeyList, {
    message: '$property must be a comma-separated list of keys, each the base64 of 32 bytes',
  })
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
