/** Exit codes of every ops command (documented in docs/operations.md). */
export const ExitCode = {
  Ok: 0,
  /** Something failed: Kafka or the API unreachable, an unexpected answer. */
  Failed: 1,
  /** The command line is wrong: unknown command or option, bad value, unknown group or topic. */
  Usage: 2,
  /** Refused for safety: events would be skipped, or the group has running consumers. */
  Refused: 3,
  /**
   * Waited for the deadline and the work is not done (lag still above 0, outcomes missing), or
   * nothing moved for --stall-timeout.
   */
  TimedOut: 4,
  /** Stopped by ^C at a safe point; running the same command again continues (live replay). */
  Interrupted: 130,
} as const;

export class OpsError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** A wrong value that only the cluster could reveal (unknown group or topic): exit 2, no usage dump. */
export class BadValueError extends OpsError {
  constructor(message: string) {
    super(message, ExitCode.Usage);
  }
}

export class RefusedError extends OpsError {
  constructor(message: string) {
    super(message, ExitCode.Refused);
  }
}

export class TimedOutError extends OpsError {
  constructor(message: string) {
    super(message, ExitCode.TimedOut);
  }
}

/** Stopped by ^C at a safe point (exit 130, as shells report SIGINT); what to run to continue is printed. */
export class InterruptedError extends OpsError {
  constructor(message: string) {
    super(message, ExitCode.Interrupted);
  }
}
