import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/infra';

const run = promisify(execFile);

export type InfraPiece = 'postgres' | 'redis' | 'kafka';

const portOf = (url: string) => new URL(url.includes('://') ? url : `tcp://${url.split(',')[0]}`).port;

/**
 * Stops and starts one of the servers the tests run on, through the project's own scripts
 * (scripts/infra/<piece>.sh), with the ports of the addresses the tests use and the LOCAL_DIR that
 * started them. Only servers those scripts started under that LOCAL_DIR can be restarted:
 * `assertRestartable` checks this first, so a shared server started some other way is never touched.
 */
export class InfraControl {
  constructor(private readonly addresses: { DATABASE_URL: string; REDIS_URL: string; KAFKA_BROKERS: string }) {}

  private env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      ...this.addresses,
      PG_PORT: portOf(this.addresses.DATABASE_URL),
      REDIS_PORT: portOf(this.addresses.REDIS_URL),
      KAFKA_PORT: portOf(this.addresses.KAFKA_BROKERS),
    };
  }

  private script(piece: InfraPiece, command: 'up' | 'down' | 'status') {
    return run('bash', [join(ROOT, 'scripts', 'infra', `${piece}.sh`), command], { env: this.env(), timeout: 180_000 });
  }

  async assertRestartable(): Promise<void> {
    for (const piece of ['postgres', 'redis', 'kafka'] as const) {
      const { stdout } = await this.script(piece, 'status').catch((err: { stdout?: string }) => ({
        stdout: err.stdout ?? '',
      }));
      if (!/running \(pid \d+\)/.test(stdout)) {
        throw new Error(
          `${piece} was not started by scripts/infra/${piece}.sh ` +
            `under LOCAL_DIR=${process.env.LOCAL_DIR ?? join(ROOT, '.local')} (status: ${stdout.trim()}); ` +
            'the chaos test restarts the servers it runs on, ' +
            'so start them with `npm test` or `npm run infra:up` (with that LOCAL_DIR)',
        );
      }
    }
  }

  async restart(piece: InfraPiece): Promise<void> {
    await this.script(piece, 'down');
    await this.script(piece, 'up');
  }
}
