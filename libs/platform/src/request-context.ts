import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request (or per-event) values that every log line carries. */
export interface LogContext {
  request_id?: string;
  correlation_id?: string;
  event_id?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

export function runWithContext<T>(ctx: LogContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...ctx }, fn);
}

export function currentContext(): LogContext {
  return storage.getStore() ?? {};
}
