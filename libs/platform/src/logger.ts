import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { redactText, redactValue } from './redaction';
import { currentContext } from './request-context';

export { redactText, redactValue } from './redaction';

let root: Logger | undefined;

/** The process's logger; `destination` (stdout by default) lets tests read the lines. */
export function createRootLogger(service: string, level = 'info', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'message',
    mixin: () => ({ ...currentContext() }),
    // Every field of every line, errors included (they arrive here before any serializer runs).
    formatters: { level: (label) => ({ level: label }), log: (obj) => redactValue(obj) as Record<string, unknown> },
    serializers: { err: (err: unknown) => err },
    hooks: {
      logMethod(args, method) {
        // Without a message, pino takes the error's message as it is: give it the redacted one.
        const [first, ...rest] = args as unknown[];
        const err = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
        const fields = first instanceof Error ? { err: first } : first;
        const normalised =
          err instanceof Error && rest.length === 0
            ? [fields, err.message]
            : first instanceof Error
              ? [fields, ...rest]
              : args;
        const cleaned = normalised.map((a) => (typeof a === 'string' ? redactText(a) : a));
        return method.apply(this, cleaned as Parameters<typeof method>);
      },
    },
  };
  root = destination ? pino(options, destination) : pino(options);
  return root;
}

export function rootLogger(): Logger {
  return root ?? createRootLogger(process.title || 'app');
}

/** Adapts pino to Nest's LoggerService so framework logs are JSON lines too. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, rest: unknown[]) {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    if (message instanceof Error) {
      this.logger[level]({ context, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ context, ...(message as object) });
    } else {
      const stack = level === 'error' && typeof rest[0] === 'string' && rest.length > 1 ? rest[0] : undefined;
      this.logger[level]({ context, stack }, String(message));
    }
  }

  log(message: unknown, ...rest: unknown[]) {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.write('trace', message, rest);
  }
}
