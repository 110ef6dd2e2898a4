import { DPO_CREATE_REFUSALS, DPO_REFUND_REFUSALS, DPO_VERIFY_CODES, mapDpoVerifyCode } from './dpo-status';

describe('DPO verifyToken result codes', () => {
  it.each<[string, object]>([
    ['000', { kind: 'status', status: 'success', recognized: true }],
    ['001', { kind: 'status', status: 'processing', recognized: true }],
    ['002', { kind: 'status', status: 'processing', recognized: false }],
    ['003', { kind: 'status', status: 'processing', recognized: true }],
    ['005', { kind: 'status', status: 'processing', recognized: true }],
    ['007', { kind: 'status', status: 'processing', recognized: true }],
    ['900', { kind: 'status', status: 'pending', recognized: true }],
    ['901', { kind: 'status', status: 'failed', recognized: true }],
    ['903', { kind: 'status', status: 'failed', recognized: true }],
    ['904', { kind: 'status', status: 'failed', recognized: true }],
    ['801', { kind: 'request-problem' }],
    ['802', { kind: 'request-problem' }],
    ['803', { kind: 'request-problem' }],
    ['804', { kind: 'request-problem' }],
    ['902', { kind: 'request-problem' }],
    ['950', { kind: 'request-problem' }],
    ['951', { kind: 'request-problem' }],
  ])('%s → %o', (code, meaning) => {
    expect(mapDpoVerifyCode(code)).toMatchObject(meaning);
    expect(mapDpoVerifyCode(` ${code}\n`)).toMatchObject(meaning);
  });

  it('knows exactly the documented codes', () => {
    expect(DPO_VERIFY_CODES).toEqual([
      '000',
      '001',
      '002',
      '003',
      '005',
      '007',
      '801',
      '802',
      '803',
      '804',
      '900',
      '901',
      '902',
      '903',
      '904',
      '950',
      '951',
    ]);
  });

  it.each(['', '0', '00', '999', '905', '940', 'abc', '0000', '000x'])(
    'an undocumented code %j is never a statement about the payment',
    (code) => {
      expect(mapDpoVerifyCode(code)).toMatchObject({ kind: 'request-problem' });
    },
  );

  it('only 001, 003, 005, 007, 900 leave a payment open; success only for 000; failed only for 901, 903, 904', () => {
    const by = (s: string) =>
      DPO_VERIFY_CODES.filter((c) => {
        const m = mapDpoVerifyCode(c);
        return m.kind === 'status' && m.status === s && m.recognized;
      });
    expect(by('success')).toEqual(['000']);
    expect(by('failed')).toEqual(['901', '903', '904']);
    expect(by('processing')).toEqual(['001', '003', '005', '007']);
    expect(by('pending')).toEqual(['900']);
  });

  it('createToken refusals are the documented codes but 000 and 940', () => {
    expect(Object.keys(DPO_CREATE_REFUSALS).sort()).toEqual([
      '801',
      '802',
      '803',
      '804',
      '902',
      '904',
      '905',
      '906',
      '922',
      '923',
      '930',
      '950',
      '960',
    ]);
  });

  it('refundToken refusals', () => {
    expect(Object.keys(DPO_REFUND_REFUSALS).sort()).toEqual(['801', '802', '803', '804', '950', '999']);
  });
});
