import { readFileSync } from 'node:fs';
import type { KafkaConfig, SASLOptions } from 'kafkajs';
import { ConfigError, type KafkaSaslMechanism } from '@payments/config';

/** The TLS and SASL settings of a Kafka client (KAFKA_SSL*, KAFKA_SASL_* variables). */
export interface KafkaSecuritySettings {
  KAFKA_SSL: boolean;
  KAFKA_SSL_CA_FILE: string;
  KAFKA_SASL_MECHANISM: KafkaSaslMechanism;
  KAFKA_SASL_USERNAME: string;
  KAFKA_SASL_PASSWORD: string;
}

/** kafkajs `ssl` and `sasl` options; an unreadable CA file stops startup naming the variable. */
export function kafkaSecurityOptions(s: KafkaSecuritySettings): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  let ssl: KafkaConfig['ssl'];
  if (s.KAFKA_SSL) {
    if (!s.KAFKA_SSL_CA_FILE) ssl = true;
    else {
      try {
        ssl = { ca: [readFileSync(s.KAFKA_SSL_CA_FILE, 'utf8')] };
      } catch (err) {
        const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        throw new ConfigError([
          {
            variable: 'KAFKA_SSL_CA_FILE',
            message: `cannot read ${s.KAFKA_SSL_CA_FILE}: ${reason}`,
          },
        ]);
      }
    }
  }
  const sasl: SASLOptions | undefined = s.KAFKA_SASL_MECHANISM
    ? ({
        mechanism: s.KAFKA_SASL_MECHANISM,
        username: s.KAFKA_SASL_USERNAME,
        password: s.KAFKA_SASL_PASSWORD,
      } as SASLOptions)
    : undefined;
  return { ssl, sasl };
}

/** What to check when connecting fails, naming the variables that decide it. */
export function kafkaConnectHint(err: unknown, s: KafkaSecuritySettings): string {
  const name = (err as Error)?.name ?? '';
  const message = (err as Error)?.message ?? '';
  if (/SASL|Authentication/i.test(name) || /SASL|authentication/i.test(message)) {
    return (
      'The broker refused the SASL credentials: check KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD ' +
      `(mechanism ${s.KAFKA_SASL_MECHANISM || 'none'}, KAFKA_SASL_MECHANISM)`
    );
  }
  if (/certificate|self[- ]signed|SSL|TLS|CERT_/i.test(message)) {
    return 'TLS to the broker failed: check KAFKA_SSL and KAFKA_SSL_CA_FILE';
  }
  return 'Start it with `npm run infra:up` or point KAFKA_BROKERS at a running broker';
}
