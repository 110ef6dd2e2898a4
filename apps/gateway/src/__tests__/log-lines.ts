import { Writable } from 'node:stream';
import { createRootLogger } from '@payments/platform';

/** Sends the gateway's log to memory: each line written from now on, parsed, in the array returned. */
export function logLines(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  createRootLogger('gateway', 'info', sink);
  return lines;
}
