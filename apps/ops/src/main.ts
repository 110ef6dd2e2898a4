#!/usr/bin/env node
import { Kafka, logLevel } from 'kafkajs';
import { ConfigError, loadConfig } from '@payments/config';
import { kafkaConnectHint, kafkaSecurityOptions } from '@payments/messaging';
import { UsageError, parseArgs } from './args';
import { createBusinessCommand } from './commands/admin-ops';
import { dlqReplayCommand, lagCommand, replayCommand } from './commands/kafka-ops';
import { reconcileCommand, RECONCILE_USAGE } from './commands/reconcile';
import { recoverWebhooksCommand, WEBHOOKS_RECOVER_USAGE } from './commands/webhooks-recover';
import { OpsConfig } from './ops.config';

const USAGE = `ops — on-call tooling for the payments platform (settings from the environment, see docs/operations.md)

  ops lag [--group G] [--follow [--timeout S]]        consumer lag per partition; --follow: progress bar until 0
  ops replay --group G --topic T (--earliest | --from-offset N | --from-time ISO) [--dry-run]
                                                      move a STOPPED group back; its consumers apply each event once
  ops dlq replay --group G [--dry-run]                send a group's dead-letter messages back to their topics
  ops business create --name NAME                     create a business and print its four API keys
  ops webhooks recover --business ID --since ISO [--mode test|live] [--dry-run]
                                                      send again failed and skipped webhook deliveries
  ops reconcile                                       check, read-only, that the services agree; exit 1 on differences`;

async function main(): Promise<void> {
  const p = parseArgs(process.argv.slice(2));
  const [first, second] = p.words;
  if (first === 'webhooks' && second === 'recover' && p.options.help) return console.log(WEBHOOKS_RECOVER_USAGE);
  if (first === 'reconcile' && p.options.help) return console.log(RECONCILE_USAGE);
  if (!first || p.options.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig(OpsConfig);
  if (first === 'business' && second === 'create') return createBusinessCommand(config, p);
  if (first === 'webhooks' && second === 'recover') return recoverWebhooksCommand(config, p);
  if (first === 'reconcile') return reconcileCommand(config, p);

  const kafka = new Kafka({ clientId: 'ops-cli', brokers: config.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING, connectionTimeout: 3_000, ...kafkaSecurityOptions(config) });
  const admin = kafka.admin();
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(`Kafka at ${config.KAFKA_BROKERS} is unreachable: ${(err as Error).message}. ${kafkaConnectHint(err, config)}`);
  }
  try {
    if (first === 'lag') return await lagCommand(admin, config, p);
    if (first === 'replay') return await replayCommand(admin, config, p);
    if (first === 'dlq' && second === 'replay') return await dlqReplayCommand(kafka, admin, config, p);
    throw new UsageError(`unknown command: ${p.words.join(' ')}`);
  } finally {
    await admin.disconnect();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    if (err instanceof UsageError) process.stderr.write(`error: ${err.message}\n\n${USAGE}\n`);
    else if (err instanceof ConfigError) process.stderr.write(`error: ${err.message}\n`);
    else process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exit(err instanceof UsageError || err instanceof ConfigError ? 2 : 1);
  },
);
