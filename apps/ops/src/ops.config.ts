import { IsBoolean, IsString, Matches } from 'class-validator';
import { CommonConfig, WithKafkaClient } from '@payments/config';

/** Settings of the ops CLI; property name = environment variable name. */
export class OpsConfig extends WithKafkaClient(CommonConfig) {
  /** The CLI prints its own errors; client library warnings (rebalances, retries) would be noise. */
  override LOG_LEVEL = 'error';

  @Matches(/^https?:\/\/\S+$/, { message: '$property must be an http(s) URL' })
  GATEWAY_URL = 'http://127.0.0.1:3000';

  @IsString()
  ADMIN_API_TOKEN = '';

  /** A merchant's secret key, for `ops webhooks listen` (or its --api-key). */
  @IsString()
  PAYMENTS_API_KEY = '';

  /** After any command, print its peak memory (max RSS) on stderr (read in main.ts): long work must stay bounded. */
  @IsBoolean()
  OPS_REPORT_RSS = false;
}
