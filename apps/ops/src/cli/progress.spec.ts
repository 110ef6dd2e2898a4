import { PassThrough } from 'node:stream';
import { Progress } from './progress';

function pipe(): { out: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d) => (text += d));
  return { out: stream as unknown as NodeJS.WriteStream, text: () => text };
}

describe('Progress off a terminal', () => {
  it('prints plain lines at most every interval, and always a last one', () => {
    const { out, text } = pipe();
    const p = new Progress('copying', 10, out, 60_000);
    p.update(1);
    p.update(5);
    p.stop('done');
    expect(text()).toBe('copying 1/10 (10 %)\ncopying 5/10 (50 %) done\n');
  });

  it('counts an empty job as complete', () => {
    const { out, text } = pipe();
    new Progress('lag of g', 0, out).stop();
    expect(text()).toBe('lag of g 0/0 (100 %)\n');
  });
});
