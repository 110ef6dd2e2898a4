import type { Stack } from './stack';

type Body = Record<string, unknown>;
const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

/**
 * Walks a list forward (starting_after) and backward (ending_before from its oldest object) with limits of 1 and 2:
 * each walk sees every object once, in the order of the whole list, and has_more is true exactly until the last page.
 */
export async function walkList(
  stack: Stack,
  list: { path: string; key: string; field: string; idOf: (o: Body) => string },
  expected: string[],
): Promise<void> {
  const page = async (query: string) => {
    const res = await stack.api<Body>('GET', withQuery(list.path, query), { key: list.key });
    expect({ query, status: res.status }).toEqual({ query, status: 200 });
    return { items: (res.body[list.field] as Body[]).map(list.idOf), hasMore: res.body.has_more as boolean };
  };
  const whole = await page('limit=100');
  expect(whole).toEqual({ items: expected, hasMore: false });
  for (const limit of [1, 2]) {
    const forward: string[] = [];
    // At most one page per object: a list that never ends fails instead of looping.
    for (let cursor: string | null = null, n = 0; n <= expected.length; n++) {
      const p = await page(`limit=${limit}${cursor ? `&starting_after=${cursor}` : ''}`);
      forward.push(...p.items);
      expect(p.hasMore).toBe(forward.length < expected.length);
      if (!p.hasMore) break;
      cursor = forward[forward.length - 1];
    }
    expect(forward).toEqual(expected);
    const backward: string[] = [];
    for (let cursor = expected[expected.length - 1], n = 0; n <= expected.length; n++) {
      const p = await page(`limit=${limit}&ending_before=${cursor}`);
      backward.unshift(...p.items);
      expect(p.hasMore).toBe(backward.length < expected.length - 1);
      if (!p.hasMore) break;
      cursor = p.items[0];
    }
    expect(backward).toEqual(expected.slice(0, -1));
  }
}

/** A cursor of another business's (or an unknown one) is a 400 on the caller's list, never its data. */
export async function refusesCursor(stack: Stack, path: string, key: string, foreign: string): Promise<void> {
  for (const field of ['starting_after', 'ending_before']) {
    const res = await stack.api<Body>('GET', withQuery(path, `${field}=${foreign}`), { key });
    expect({ field, status: res.status, code: res.body.code, errors: res.body.errors }).toEqual({
      field,
      status: 400,
      code: 'validation_error',
      errors: [expect.objectContaining({ field })],
    });
  }
}
