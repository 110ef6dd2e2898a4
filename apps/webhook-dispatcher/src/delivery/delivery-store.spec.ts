import { type DataSource, type Sql, sqlText } from '@payments/database';
import { DeliveryStore } from './delivery-store';

/** A database that answers a claim statement with a row for each delivery it names, and records the claims. */
function fakeDatabase() {
  const claims: string[][] = [];
  let letFirstGo!: () => void;
  const firstHeld = new Promise<void>((resolve) => (letFirstGo = resolve));
  const ds = {
    query: async (sql: Sql, params: unknown[]) => {
      if (sqlText(sql).includes('WITH input AS')) {
        const ids = params[0] as string[];
        claims.push(ids);
        // The first statement stays in flight until the test lets it go, so the next claims group behind it.
        if (claims.length === 1) await firstHeld;
        return ids.map((id) => ({
          id,
          callback_id: 1,
          attempts: 0,
          lock_token: `token-${id}-${claims.length}`,
          callback_json: null,
          event_json: { id: `evt_${id}`, created_at: '2026-01-01T00:00:00.000Z' },
        }));
      }
      // The "busy?" check of a claim that came back empty: the row is held (by the claim that won).
      return [];
    },
  } as unknown as DataSource;
  // A claim runs in a transaction without bitmap scans: the setting goes with BEGIN, the claim with COMMIT.
  const sent: string[] = [];
  (ds as unknown as { transaction: unknown }).transaction = async (
    options: { settings?: Record<string, string> },
    fn: (m: unknown) => Promise<unknown>,
  ) => {
    sent.push(`transaction ${JSON.stringify(options.settings)}`);
    return fn({
      query: async (sql: Sql) => void sent.push(sqlText(sql)),
      commitWith: async (sql: Sql, params: unknown[]) => {
        sent.push(`commitWith ${sqlText(sql).includes('WITH input AS') ? 'claim' : sqlText(sql)}`);
        return ds.query(sql, params);
      },
    });
  };
  return { ds, claims, letFirstGo, sent };
}

describe('DeliveryStore claims', () => {
  it('claims a delivery named twice in one group statement for the first caller only', async () => {
    const { ds, claims, letFirstGo, sent } = fakeDatabase();
    const store = new DeliveryStore(ds);
    const other = store.claimAttempt('7', 0, 20, 32);
    // The claims of one turn of the event loop go together: the next ones come in a later turn.
    while (claims.length === 0) await new Promise((r) => setImmediate(r));
    // Both arrive while the first statement is in flight: they go out together in the next one.
    const [a, b, c] = [
      store.claimAttempt('9', 0, 20, 32),
      store.claimAttempt('9', 0, 20, 32),
      store.claimAttempt('8', 0, 20, 32),
    ];
    letFirstGo();
    const results = await Promise.all([other, a, b, c]);

    expect(claims).toEqual([['7'], ['9', '8']]);
    expect(results.map((r) => (r && r !== 'busy' ? r.delivery.id : r))).toEqual(['7', '9', null, '8']);
    // Each claim statement in its transaction, after turning bitmap scans off (see CLAIM_MANY).
    expect(sent).toEqual([
      'transaction {"enable_bitmapscan":"off"}',
      'commitWith claim',
      'transaction {"enable_bitmapscan":"off"}',
      'commitWith claim',
    ]);
  });
});
