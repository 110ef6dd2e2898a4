import { LedgerRpcPatterns, RpcPatterns } from '@payments/contracts';
import { RpcSigner, RpcVerifier, rpcSecrets, DEVELOPMENT_RPC_SECRET } from './rpc-envelope';

const SECRET = 'current-secret-0123456789-abcdefghij';
const OLD = 'previous-secret-0123456789-abcdefghij';
const body = { ctx: { request_id: 'req_1', business_id: 7 }, body: { amount: 1000, email: 'b@example.com' } };

describe('signed RPC envelope', () => {
  let verifier: RpcVerifier;
  beforeEach(() => (verifier = new RpcVerifier({ secrets: [SECRET, OLD], maxAgeMs: 30_000 })));
  afterEach(() => verifier.close());

  const packet = (signer: RpcSigner, pattern: string, data: unknown = body, now = Date.now()) => ({
    pattern,
    body: JSON.stringify(data),
    auth: signer.sign(pattern, JSON.stringify(data), undefined, now),
  });

  it('accepts a fresh request signed with the current or the previous secret', () => {
    expect(verifier.verify(packet(new RpcSigner(SECRET, 'merchant'), RpcPatterns.TransactionsVerify))).toBeNull();
    expect(verifier.verify(packet(new RpcSigner(OLD, 'merchant'), RpcPatterns.TransactionsVerify))).toBeNull();
  });

  it('signs the deadline (version 2): a changed or missing ttl is refused, a version 1 envelope still passes', () => {
    const signer = new RpcSigner(SECRET, 'merchant');
    const data = JSON.stringify(body);
    const p = {
      pattern: RpcPatterns.TransactionsInitialize,
      body: data,
      auth: signer.sign(RpcPatterns.TransactionsInitialize, data, 2_000),
    };
    expect(p.auth).toMatchObject({ v: 2, ttl: 2_000 });
    expect(verifier.verify(p)).toBeNull();
    expect(verifier.verify({ ...p, auth: { ...p.auth, nonce: `${p.auth.nonce.slice(0, -1)}0`, ttl: 60_000 } })).toBe(
      'bad_signature',
    );
    expect(verifier.verify({ ...p, auth: { ...p.auth, ttl: 60_000 } })).toBe('bad_signature');
    expect(verifier.verify({ ...p, auth: { ...p.auth, ttl: undefined } })).toBe('malformed');
    expect(verifier.verify({ ...p, auth: { ...p.auth, ttl: -1 } })).toBe('malformed');
    expect(verifier.verify({ ...p, auth: { ...p.auth, v: 1, ttl: undefined } })).toBe('bad_signature');
    expect(
      verifier.verify({
        pattern: RpcPatterns.TransactionsInitialize,
        body: data,
        auth: signer.sign(RpcPatterns.TransactionsInitialize, data),
      }),
    ).toBeNull();
  });

  it('refuses a request without credentials or with malformed ones', () => {
    expect(verifier.verify({ pattern: RpcPatterns.TransactionsVerify, body: JSON.stringify(body) })).toBe('missing');
    const p = packet(new RpcSigner(SECRET, 'merchant'), RpcPatterns.TransactionsVerify);
    expect(verifier.verify({ ...p, auth: { ...p.auth, scope: 'root' } })).toBe('malformed');
    expect(verifier.verify({ ...p, auth: 'x' })).toBe('malformed');
  });

  it('refuses another secret, and any change of body, pattern or scope', () => {
    expect(
      verifier.verify(
        packet(new RpcSigner('wrong-secret-0123456789-abcdefghijk', 'merchant'), RpcPatterns.RefundsCreate),
      ),
    ).toBe('bad_signature');
    const p = packet(new RpcSigner(SECRET, 'merchant'), RpcPatterns.TransactionsVerify);
    expect(verifier.verify({ ...p, body: JSON.stringify({ ...body, ctx: { ...body.ctx, business_id: 8 } }) })).toBe(
      'bad_signature',
    );
    // The bytes are what is signed: the same value serialised differently is refused too.
    expect(verifier.verify({ ...p, body: JSON.stringify(body, null, 1) })).toBe('bad_signature');
    expect(verifier.verify({ ...p, body: Buffer.from(p.body) })).toBeNull();
    expect(verifier.verify({ ...p, pattern: RpcPatterns.RefundsCreate })).toBe('bad_signature');
    expect(
      verifier.verify({ ...p, pattern: LedgerRpcPatterns.SettlementRun, auth: { ...p.auth, scope: 'admin' } }),
    ).toBe('bad_signature');
  });

  it('refuses a request older (or newer) than the window, and an exact replay inside it', () => {
    const signer = new RpcSigner(SECRET, 'merchant');
    expect(verifier.verify(packet(signer, RpcPatterns.TransactionsVerify, body, Date.now() - 31_000))).toBe('expired');
    expect(verifier.verify(packet(signer, RpcPatterns.TransactionsVerify, body, Date.now() + 31_000))).toBe('expired');
    const p = packet(signer, RpcPatterns.RefundsCreate);
    expect(verifier.verify(p)).toBeNull();
    expect(verifier.verify(p)).toBe('replayed');
  });

  it('runs admin-only patterns only with the admin scope', () => {
    expect(verifier.verify(packet(new RpcSigner(SECRET, 'merchant'), LedgerRpcPatterns.SettlementRun, {}))).toBe(
      'scope',
    );
    expect(verifier.verify(packet(new RpcSigner(SECRET, 'merchant'), LedgerRpcPatterns.InvoiceMarkPaid, {}))).toBe(
      'scope',
    );
    expect(verifier.verify(packet(new RpcSigner(SECRET, 'admin'), LedgerRpcPatterns.SettlementRun, {}))).toBeNull();
  });

  it('uses the development key only in development', () => {
    expect(
      rpcSecrets({ NODE_ENV: 'development', INTERNAL_RPC_SECRET: '', INTERNAL_RPC_SECRET_PREVIOUS: '' }).current,
    ).toBe(DEVELOPMENT_RPC_SECRET);
    expect(() =>
      rpcSecrets({ NODE_ENV: 'production', INTERNAL_RPC_SECRET: '', INTERNAL_RPC_SECRET_PREVIOUS: '' }),
    ).toThrow(/INTERNAL_RPC_SECRET/);
    expect(
      rpcSecrets({ NODE_ENV: 'production', INTERNAL_RPC_SECRET: SECRET, INTERNAL_RPC_SECRET_PREVIOUS: OLD }).accepted,
    ).toEqual([SECRET, OLD]);
  });
});
