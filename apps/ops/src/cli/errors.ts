/** Exit codes of every ops command (documented in docs/operations.md). */
export const ExitCode = {
  Ok: 0,
  /** Something failed: Kafka or the API unreachable, an unexpected answer. */
  Failed: 1,
  /** The command line is wrong: unknown command or option, bad value, unknown group or topic. */
  Usage: 2,
  /** Refused for safety: events would be skipped, or the group has running consumers. */
  Refused: 3,
  /** Waited for the deadline and the work is not done (lag still above 0, outcomes missing). */
  TimedOut: 4,
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
