import { Closed, Int, Str } from '@payments/contracts/schemas';
import { ApiResponds, ApiRespondsRaw, apiResponseOf } from './api-response';

const Answer = Closed({ result: Str(), count: Int() });

class Handlers {
  @ApiResponds(200, 'The answer', Answer)
  async good(): Promise<{ result: string; count: number }> {
    return { result: 'success', count: 1 };
  }

  // `tsc` (which type-checks the specs too) fails if the decorator stops refusing these.
  // @ts-expect-error a renamed field: the handler no longer returns the documented type
  @ApiResponds(200, 'The answer', Answer)
  async renamed(): Promise<{ result: string; total: number }> {
    return { result: 'success', total: 1 };
  }

  // @ts-expect-error a field of the wrong type
  @ApiResponds(200, 'The answer', Answer)
  wrongType(): { result: string; count: string } {
    return { result: 'success', count: '1' };
  }

  @ApiRespondsRaw({ status: 303, description: 'Redirect' })
  redirect(): void {}
}

describe('ApiResponds', () => {
  it('records the declared answer on the handler, for the document generator', () => {
    expect(apiResponseOf(Handlers.prototype.good)).toEqual({ status: 200, description: 'The answer', schema: Answer });
    expect(apiResponseOf(Handlers.prototype.redirect)).toEqual({ status: 303, description: 'Redirect' });
  });

  it('records nothing on a handler without it', () => {
    class Bare {
      plain(): number {
        return 1;
      }
    }
    expect(apiResponseOf(Bare.prototype.plain)).toBeUndefined();
  });
});
