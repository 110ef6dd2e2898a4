import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { PollingWorker, ROOT_LOGGER } from '@payments/platform';
import { ConnectionStore } from './connection-store';
import { CredentialsCipher } from './credentials-cipher';

const BATCH = 100;
/** How often rows are looked for again: during a rollout, replicas still on the old key keep writing with it. */
const PASS_INTERVAL_MS = 60_000;

/**
 * Completes a rotation of PROVIDER_CREDENTIALS_KEY: while PROVIDER_CREDENTIALS_OLD_KEYS is set,
 * reseals connections still under an old key (at start, then every minute) and logs when none is
 * left, after which the old keys can be removed (docs/going-live.md).
 */
@Injectable()
export class ConnectionKeyRotation implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker | undefined;
  private afterId = '0';
  private pass = { resealed: 0, unreadable: 0 };
  /** Whether the last pass left nothing under an old key (and said so). */
  private clean = false;

  constructor(
    private readonly store: ConnectionStore,
    cipher: CredentialsCipher,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    if (cipher.olderKeyIds.length > 0)
      this.worker = new PollingWorker('provider-credentials-rotation', () => this.tick(), PASS_INTERVAL_MS, logger);
  }

  onApplicationBootstrap(): void {
    this.worker?.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  /** One batch; true while the pass has more rows to look at. */
  async tick(): Promise<boolean> {
    const batch = await this.store.resealBatch(this.afterId, BATCH);
    this.pass.resealed += batch.resealed;
    this.pass.unreadable += batch.unreadable;
    if (batch.lastId !== null && batch.resealed + batch.unreadable === BATCH) {
      this.afterId = batch.lastId;
      return true;
    }
    const { resealed, unreadable } = this.pass;
    if (unreadable > 0) {
      this.logger.error(
        { resealed, unreadable },
        'provider credentials under an old key do not decrypt (altered?); they were left as they are',
      );
      this.clean = false;
    } else if (resealed > 0 || !this.clean) {
      this.logger.info(
        { resealed, key_id: this.store.currentKeyId },
        'provider credentials: none left under PROVIDER_CREDENTIALS_OLD_KEYS ' +
          '(the rest are sealed with PROVIDER_CREDENTIALS_KEY)',
      );
      this.clean = true;
    }
    this.afterId = '0';
    this.pass = { resealed: 0, unreadable: 0 };
    return false;
  }
}
