import { IsBoolean, IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { PORT_RULE, RedisServiceConfig } from '@payments/config';
import { DURATION_PATTERN } from '../delivery/disable-rule';

/** webhook-dispatcher settings; property name = environment variable name. */
export class WebhookDispatcherConfig extends RedisServiceConfig {
  override DATABASE_NAME = 'payments_webhooks';

  @IsInt(PORT_RULE)
  @Min(1, PORT_RULE)
  @Max(65535, PORT_RULE)
  override RPC_PORT = 4003;

  @IsInt(PORT_RULE)
  @Min(1, PORT_RULE)
  @Max(65535, PORT_RULE)
  override HTTP_PORT = 4103;

  /** A delivery succeeds on a 2xx within this time. */
  @IsInt()
  @Min(100)
  @Max(120_000)
  WEBHOOK_TIMEOUT_MS = 15_000;

  /** Seconds between attempts after a failure; ±20 % jitter is added. */
  @Matches(/^\d+(,\d+)*$/, { message: '$property must be a comma-separated list of seconds' })
  WEBHOOK_RETRY_SCHEDULE = '5,300,1800,7200,18000,36000,36000';

  /** Consecutive failed attempts after which a callback is disabled. */
  @IsInt()
  @Min(1)
  @Max(100_000)
  WEBHOOK_DISABLE_AFTER = 50;

  /**
   * And only once its failures have lasted this long (`0`, or e.g. `90s`, `30m`, `12h`, `5d`);
   * `0` keeps the count-only rule.
   */
  @Matches(DURATION_PATTERN, {
    message: '$property must be 0 or a whole number with a unit ms, s, m, h or d (e.g. 5d)',
  })
  WEBHOOK_DISABLE_MIN_FAILING = '5d';

  /** Development and tests only: lets callbacks target private and loopback addresses. */
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_TARGETS = false;

  /** Extra trusted CA certificate (PEM file) for callback endpoints. */
  @IsString()
  WEBHOOK_CA_FILE = '';

  /** Attempts in flight at once for one callback, so a slow endpoint cannot starve the others. */
  @IsInt()
  @Min(1)
  @Max(100)
  WEBHOOK_CALLBACK_CONCURRENCY = 32;

  /** Attempts in flight at once in one dispatcher process. */
  @IsInt()
  @Min(1)
  @Max(500)
  WEBHOOK_WORKER_CONCURRENCY = 100;

  /** Callbacks one business may register per mode. */
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_MAX_CALLBACKS = 20;

  /** Largest request body sent to a callback, in bytes; a larger event fails without being sent. */
  @IsInt()
  @Min(1024)
  @Max(10_485_760)
  WEBHOOK_MAX_PAYLOAD_BYTES = 262_144;

  /** How long after a roll the previous signing secret still signs deliveries (seconds). */
  @IsInt()
  @Min(0)
  @Max(604_800)
  WEBHOOK_SECRET_ROLL_GRACE_SECONDS = 86_400;

  /** Fallback poll only: new, retried and recovered deliveries wake the enqueuer at once. */
  @IsInt()
  @Min(10)
  @Max(60_000)
  WEBHOOK_ENQUEUE_INTERVAL_MS = 1_000;

  /**
   * How often the reconciler looks for pending deliveries whose queue job was lost (a crash, a
   * Redis restart) and hands them back to the enqueuer.
   */
  @IsInt()
  @Min(100)
  @Max(600_000)
  WEBHOOK_RECONCILE_INTERVAL_MS = 5_000;

  /**
   * How long a delivery must have been handed over, and its attempt overdue, before the reconciler
   * asks the queue about its job: below this an attempt is simply late, not lost.
   */
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  WEBHOOK_RECONCILE_GRACE_MS = 5_000;

  /**
   * A test webhook (POST /v1/callback/{id}/test) answers within this time, the smaller of it and
   * WEBHOOK_TIMEOUT_MS; keep it below the gateway's RPC_TIMEOUT_MS so the merchant hears the outcome.
   */
  @IsInt()
  @Min(100)
  @Max(60_000)
  WEBHOOK_TEST_TIMEOUT_MS = 8_000;

  /** How long catalogue events stay readable through the events API (`30d`, `12h`, …); older ones are pruned. */
  @Matches(/^[1-9]\d{0,8}(s|m|h|d)$/, {
    message: '$property must be a whole number with a unit s, m, h or d (e.g. 30d)',
  })
  EVENT_RETENTION = '30d';

  /** How often the pruning job deletes events older than EVENT_RETENTION. */
  @IsInt()
  @Min(1_000)
  @Max(86_400_000)
  EVENT_PRUNE_INTERVAL_MS = 3_600_000;
}
