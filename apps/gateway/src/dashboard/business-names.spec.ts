import type { BusinessesService } from '../businesses/businesses.service';
import type { ApiRequest } from '../http/http-types';
import { PartnerNames } from './business-names';

const OWN = 7;
const req = { dashboard: { user: { business_id: OWN } } } as unknown as ApiRequest;
const entry = (kind: string, creditor: number, debtor: number) => ({
  kind,
  creditor_business_id: creditor,
  debtor_business_id: debtor,
});

function names() {
  const asked: number[][] = [];
  const businesses = {
    names: async (ids: number[]) => (asked.push(ids), new Map(ids.map((id) => [id, `Business ${id} Ltd`]))),
  };
  return { asked, names: new PartnerNames(businesses as unknown as BusinessesService) };
}

describe('PartnerNames: a business is named only to those it chose to pay', () => {
  it('names the debtors of split entries the session’s business is the creditor of, in one lookup', async () => {
    const { asked, names: n } = names();
    const got = await n.payersOf(req, [entry('split', OWN, 3), entry('split', OWN, 4), entry('split', OWN, 3)]);
    expect(got).toEqual({ '3': 'Business 3 Ltd', '4': 'Business 4 Ltd' });
    expect(asked).toEqual([[3, 4]]);
  });

  it('never names a business the session’s business pays, nor one named only by a reversal', async () => {
    const { asked, names: n } = names();
    // 7 pays 9 (its own terms), and a refund reversed part of it: nothing says 9 chose to pay 7.
    expect(
      await n.payersOf(req, [entry('split', 9, OWN), entry('reversal', OWN, 9), entry('reversal', 9, OWN)]),
    ).toEqual({});
    expect(asked).toEqual([]);
  });

  it('names the counterparties that owe the session’s business, not those it owes', async () => {
    const { names: n } = names();
    expect(
      await n.owingOf(req, [
        { business_id: 3, owed_to_you: 500 },
        { business_id: 9, owed_to_you: 0 },
      ]),
    ).toEqual({ '3': 'Business 3 Ltd' });
  });
});
