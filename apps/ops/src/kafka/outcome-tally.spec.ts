import { OutcomeTally } from './outcome-tally';

describe('live replay: the outcomes of a run, each record once', () => {
  it('counts a record reported again after a consumer restart once, by its replay-seq', () => {
    const tally = new OutcomeTally(20);
    for (let seq = 0; seq < 12; seq++) expect(tally.add({ outcome: 'applied', seq })).toBe(true);
    // The consumer died before committing 8..11 and applied them again: "already applied" now.
    for (let seq = 8; seq < 12; seq++) expect(tally.add({ outcome: 'duplicate', seq })).toBe(false);
    for (let seq = 12; seq < 20; seq++) tally.add({ outcome: seq % 5 === 0 ? 'dead_lettered' : 'applied', seq });
    expect(tally.counts).toEqual({ applied: 19, duplicate: 0, dead_lettered: 1 });
    expect(tally.total).toBe(20);
  });

  it('counts results without a sequence number as they come, and ignores what it cannot place', () => {
    const tally = new OutcomeTally(3);
    expect(tally.add({ outcome: 'applied', seq: null })).toBe(true);
    expect(tally.add({ outcome: 'applied', seq: null })).toBe(true);
    expect(tally.add({ outcome: 'nonsense' as never, seq: 0 })).toBe(false);
    expect(tally.add({ outcome: 'toString' as never, seq: 1 })).toBe(false);
    expect(tally.add({ outcome: 'duplicate', seq: 7 })).toBe(true); // out of range: no bit to keep
    expect(tally.counts).toEqual({ applied: 2, duplicate: 1, dead_lettered: 0 });
  });

  it('keeps one bit per record: a day of events fits in a few megabytes', () => {
    const tally = new OutcomeTally(26_000_000);
    expect(tally.add({ outcome: 'applied', seq: 25_999_999 })).toBe(true);
    expect(tally.add({ outcome: 'applied', seq: 25_999_999 })).toBe(false);
    expect(tally.total).toBe(1);
  });

  it('counts each range of sequence numbers once, even reported again after a restart, beside single results', () => {
    const tally = new OutcomeTally(10);
    tally.addMessage({
      run: 'r',
      group: 'g',
      ranges: [
        [0, 3, 'applied'],
        [4, 4, 'dead_lettered'],
        [5, 7, 'duplicate'],
      ],
    });
    tally.addMessage({ run: 'r', group: 'g', ranges: [[2, 5, 'duplicate']] }); // 2..5 again after a restart
    tally.addMessage({
      run: 'r',
      group: 'g',
      ranges: [
        [8, 40, 'applied'],
        [-3, -1, 'applied'],
      ],
    }); // past what was sent: only 8 and 9
    tally.addMessage({ run: 'r', group: 'g', outcome: 'applied', topic: 't', partition: 0, offset: '1', seq: null });
    expect(tally.counts).toEqual({ applied: 4 + 2 + 1, duplicate: 3, dead_lettered: 1 });
  });
});
