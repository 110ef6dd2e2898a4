import { ExitCode } from './errors';

/**
 * ^C. The first one asks the running command to stop at a safe point (a live replay commits how
 * far it copied, so running it again continues there); a second one exits at once.
 */
const controller = new AbortController();

/** Aborted by the first ^C (SIGINT) or SIGTERM once `installInterruptHandler` ran. */
export const interrupted: AbortSignal = controller.signal;

export function installInterruptHandler(out: NodeJS.WriteStream = process.stderr): void {
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(ExitCode.Interrupted);
    out.write('\nstopping at the next safe point (^C again to quit at once)…\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
