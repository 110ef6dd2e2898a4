import { PassThrough } from 'node:stream';
import { Progress, clock } from './progress';

function pipe(): { out: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d) => (text += d));
  return { out: stream as unknown as NodeJS.WriteStream, text: () => text };
}

describe('Progress off a terminal', () => {
  it('prints plain lines at most every interval, and always a last one', () => {
    const { out, text } = pipe();
    const p = new Progress('copying', 10, { out, lineEveryMs: 60_000 });
    p.update(1);
    p.update(5);
    p.stop('done');
    expect(text()).toBe('copying 1/10 (10 %)\ncopying 5/10 (50 %) done\n');
  });

  it('counts an empty job as complete', () => {
    const { out, text } = pipe();
    new Progress('lag of g', 0, { out }).stop();
    expect(text()).toBe('lag of g 0/0 (100 %)\n');
  });

  it('with a unit: rate since it first moved, time left at that rate, then the time taken on one last line', () => {
    const { out, text } = pipe();
    let t = 1_000_000;
    const p = new Progress('copying', 30_000, { out, unit: 'events', lineEveryMs: 0, now: () => t });
    t += 2_000; // connecting: not counted
    p.update(2_000, 'chunk 1');
    t += 2_000;
    p.update(12_000, 'chunk 3');
    t += 4_000;
    p.update(30_000);
    p.stop();
    expect(text().split('\n')).toEqual([
      'copying 2000/30000 (6 %) 0 events/s, time left unknown; chunk 1',
      'copying 12000/30000 (40 %) 5000 events/s, 0:04 left; chunk 3',
      'copying 30000/30000 (100 %) 4667 events/s, in 0:08',
      '',
    ]);
  });
});

describe('clock', () => {
  it.each([
    [0, '0:00'],
    [75, '1:15'],
    [3725, '1:02:05'],
  ])('%d s → %s', (s, shown) => expect(clock(s)).toBe(shown));
});
