import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Admin } from 'kafkajs';
import { ROOT } from '../support/infra';

const run = promisify(execFile);

/**
 * The nodes of the local Kafka cluster the tests run on, through scripts/infra/kafka.sh (as
 * `KAFKA_NODES=3 npm run infra:up` started it, with the KAFKA_PORT of the first broker and the
 * KAFKA_CONTROLLER_PORT and LOCAL_DIR of the environment). Node i is the broker with node.id i.
 */
export class ClusterControl {
  constructor(
    private readonly brokers: string,
    readonly nodes = 3,
  ) {}

  private async script(...args: string[]): Promise<string> {
    const env = {
      ...process.env,
      KAFKA_NODES: String(this.nodes),
      KAFKA_BROKERS: this.brokers,
      KAFKA_PORT: new URL(`tcp://${this.brokers.split(',')[0]}`).port,
    };
    const { stdout } = await run('bash', [join(ROOT, 'scripts', 'infra', 'kafka.sh'), ...args], {
      env,
      timeout: 180_000,
    });
    return stdout;
  }

  /** Fails unless the scripts started every node of a cluster of `nodes` under this LOCAL_DIR. */
  async assertRestartable(): Promise<void> {
    const status = await this.script('status').catch((err: { stdout?: string }) => err.stdout ?? '');
    const running = status.split('\n').filter((l) => /^kafka node \d+: running \(pid \d+\)/.test(l)).length;
    if (running !== this.nodes) {
      throw new Error(
        `this test needs the ${this.nodes}-node Kafka cluster of scripts/infra/kafka.sh (KAFKA_NODES=${this.nodes}), ` +
          `all nodes running; status:\n${status.trim()}\n` +
          'Run it with `npm run chaos:cluster` (it starts one), ' +
          'or start it with `KAFKA_NODES=3 npm run infra:up` ' +
          'and export the same KAFKA_PORT, KAFKA_CONTROLLER_PORT and LOCAL_DIR',
      );
    }
  }

  /** SIGKILL: a crash of node `id`. */
  kill(id: number): Promise<string> {
    return this.script('kill', String(id));
  }

  /** A clean shutdown of node `id`. */
  stop(id: number): Promise<string> {
    return this.script('stop', String(id));
  }

  /** Starts the nodes that are not running; resolves once each serves requests. */
  async up(): Promise<void> {
    await this.script('up');
  }

  /** The node id of the active KRaft controller; fails while an election is under way. */
  async controller(): Promise<number> {
    return Number((await this.script('controller')).trim());
  }
}

/** Partitions whose in-sync replicas are fewer than their replicas (none: every copy caught up). */
export async function underReplicated(admin: Admin, topics: string[]): Promise<string[]> {
  const meta = await admin.fetchTopicMetadata({ topics });
  return meta.topics.flatMap((t) =>
    t.partitions
      .filter((p) => p.isr.length < p.replicas.length)
      .map((p) => `${t.name}/${p.partitionId} isr ${p.isr.join(',')} of ${p.replicas.join(',')}`),
  );
}
