import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { currentContext } from './request-context';

/** Key-like strings that must never reach a log line, whatever field they hide in. */
const SECRET_PATTERN = /(?<![A-Za-z0-9])((?:sk|pk)_(?:test|live)_)[A-Za-z0-9]{6,}|(?<![A-Za-z0-9])(whsec_)[A-Za-z0-9+/=_-]{6,}|\b(Bearer\s+)[A-Za-z0-9._~+/=-]{6,}/gi;
/** 13–19 digits, optionally grouped by spaces or dashes: candidates for card numbers (PAN). */
const PAN_CANDIDATE = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;

/** Luhn checksum: card numbers pass it, most other digit runs (timestamps, ids) do not. */
function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function redactText(text: string): string {
  return text
    .replace(SECRET_PATTERN, (_m, keyPrefix?: string, whsec?: string, bearer?: string) => `${keyPrefix ?? whsec ?? bearer ?? ''}[REDACTED]`)
    .replace(PAN_CANDIDATE, (m) => (luhnValid(m.replace(/[ -]/g, '')) ? '[REDACTED_PAN]' : m));
}

const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers["idempotency-key"]',
  '*.authorization',
  'secret',
  '*.secret',
  'api_key',
  '*.api_key',
  'password',
  '*.password',
  'token',
  '*.token',
  'mobile_money_number',
  '*.mobile_money_number',
];

let root: Logger | undefined;

export function createRootLogger(service: string, level = 'info'): Logger {
  root = pino({
    level,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'message',
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    mixin: () => ({ ...currentContext() }),
    hooks: {
      logMethod(args, method) {
        const cleaned = args.map((a) => (typeof a === 'string' ? redactText(a) : a));
        return method.apply(this, cleaned as Parameters<typeof method>);
      },
    },
  });
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
