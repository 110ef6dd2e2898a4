import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { CommonConfig, HOST_PORT_LIST } from './common.config';

// Mixins need `any[]` constructor arguments (TypeScript's rule for mixin classes).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ConfigClass = new (...args: any[]) => CommonConfig;

const SECRET_RULE = {
  message:
    '$property must be a random secret of at least 32 characters ' +
    '(required unless NODE_ENV=development; `npm run up` generates one)',
};

/**
 * The shared key of the signed gateway → service RPC envelope (see docs/security.md). Required
 * outside development; during a rotation the old key stays accepted as ..._PREVIOUS.
 */
export class InternalRpcConfig extends CommonConfig {
  @ValidateIf((o: InternalRpcConfig) => o.NODE_ENV !== 'development' || o.INTERNAL_RPC_SECRET !== '')
  @IsString()
  @MinLength(32, SECRET_RULE)
  INTERNAL_RPC_SECRET = '';

  @ValidateIf((o: InternalRpcConfig) => o.INTERNAL_RPC_SECRET_PREVIOUS !== '')
  @IsString()
  @MinLength(32, SECRET_RULE)
  INTERNAL_RPC_SECRET_PREVIOUS = '';

  /** Largest RPC frame read from a peer; a longer one drops the connection before it is buffered. */
  @IsInt()
  @Min(65_536)
  @Max(268_435_456)
  RPC_MAX_FRAME_BYTES = 16_777_216;

  /** Connections a service's RPC server keeps open at once (the gateway needs two per instance). */
  @IsInt()
  @Min(8)
  @Max(65_536)
  RPC_MAX_CONNECTIONS = 256;

  /** A service closes a connection with no valid request, or with a frame unfinished, after this long. */
  @IsInt()
  @Min(100)
  @Max(600_000)
  RPC_FRAME_TIMEOUT_MS = 10_000;
}

export const KAFKA_SASL_MECHANISMS = ['', 'plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/** Adds the settings of a Kafka client (brokers, namespace, TLS and SASL) to a config class. */
export function WithKafkaClient<B extends ConfigClass>(Base: B) {
  class KafkaClientConfig extends Base {
    @Matches(HOST_PORT_LIST, { message: '$property must be a comma-separated list of host:port' })
    KAFKA_BROKERS = '127.0.0.1:59092';

    @IsString()
    KAFKA_TOPIC_PREFIX = '';

    /** TLS to the brokers; the system CAs are trusted, plus KAFKA_SSL_CA_FILE when set. */
    @IsBoolean()
    KAFKA_SSL = false;

    @IsString()
    KAFKA_SSL_CA_FILE = '';

    @IsIn(KAFKA_SASL_MECHANISMS, {
      message: '$property must be empty (no SASL), plain, scram-sha-256 or scram-sha-512',
    })
    KAFKA_SASL_MECHANISM: KafkaSaslMechanism = '';

    @ValidateIf((o: KafkaClientConfig) => o.KAFKA_SASL_MECHANISM !== '')
    @IsNotEmpty({ message: '$property must be set when KAFKA_SASL_MECHANISM is' })
    KAFKA_SASL_USERNAME = '';

    @ValidateIf((o: KafkaClientConfig) => o.KAFKA_SASL_MECHANISM !== '')
    @IsNotEmpty({ message: '$property must be set when KAFKA_SASL_MECHANISM is' })
    KAFKA_SASL_PASSWORD = '';
  }
  return KafkaClientConfig;
}

/** The Kafka client settings alone, for code that only needs their shape. */
export class KafkaClientConfig extends WithKafkaClient(CommonConfig) {}
