import { EventEmitter } from 'node:events';
import { drained } from './output';

describe('drained', () => {
  it('returns at once when stdout is not full', async () => {
    const heartbeat = jest.fn(async () => undefined);
    await drained(
      heartbeat,
      Object.assign(new EventEmitter(), { writableNeedDrain: false }) as unknown as NodeJS.WritableStream,
    );
    expect(heartbeat).not.toHaveBeenCalled();
  });

  it('waits for the drain and keeps the consumer alive meanwhile', async () => {
    const out = Object.assign(new EventEmitter(), { writableNeedDrain: true });
    const heartbeat = jest.fn(async () => undefined);
    const waiting = drained(heartbeat, out as unknown as NodeJS.WritableStream);
    let done = false;
    void waiting.then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    out.writableNeedDrain = false;
    out.emit('drain');
    await waiting;
    expect(heartbeat).toHaveBeenCalledTimes(1);
  });
});
