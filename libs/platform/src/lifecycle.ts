import type { Logger } from 'pino';
import { ConfigError } from '@payments/config';
import { DependencyUnavailableError } from '@payments/database';
import { redactText } from './redaction';

export function fatal(logger: Logger | undefined, err: unknown): never {
  const message =
    err instanceof ConfigError || err instanceof DependencyUnavailableError
      ? err.message
      : `startup failed: ${(err as Error)?.stack ?? err}`;
  if (logger) logger.fatal({ err }, message);
  // Also plain on stderr, so a person starting the service by hand reads it at once.
  process.stderr.write(`error: ${redactText(message)}\n`);
  process.exit(err instanceof ConfigError ? 2 : 1);
}

/** SIGTERM/SIGINT run `close` once; if it takes longer than `timeoutMs` the process exits anyway. */
export function onShutdown(logger: Logger, timeoutMs: number, close: () => Promise<void>): void {
  let closing = false;
  const handler = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, timeoutMs);
    force.unref();
    close()
      .then(() => {
        logger.info('stopped cleanly');
        process.exit(0);
      })
      .catch((err) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('SIGINT', () => handler('SIGINT'));
}
