import type { TransactionManager } from '@payments/database';
import type { RefundStatusChangedEvent } from '@payments/contracts';
import { OutboxNotifier } from '@payments/messaging';
import type { TransactionCopyStore } from '../ledger/transaction-copy-store';
import type { ReverseRefundedSplitsUseCase } from '../ledger/usecases/reverse-refunded-splits.usecase';
import { RefundStatusHandler } from './refund-status.handler';

describe('RefundStatusHandler waking the outbox relay', () => {
  function handlerReversing(reversed: number) {
    const outbox = new OutboxNotifier();
    const woken = jest.spyOn(outbox, 'notify');
    const copies = { saveRefund: jest.fn(async () => undefined) } as unknown as TransactionCopyStore;
    const reversals = { execute: jest.fn(async () => reversed) } as unknown as ReverseRefundedSplitsUseCase;
    return { handler: new RefundStatusHandler(copies, reversals, outbox), woken };
  }
  const m = { query: jest.fn(async () => []) } as unknown as TransactionManager;
  const refund = (status: string) =>
    ({
      data: { refund: { status, transaction: { id: 7 } } },
      correlation_id: null,
    }) as unknown as RefundStatusChangedEvent;

  it('wakes it after the commit when reversing entries were written', async () => {
    const { handler, woken } = handlerReversing(2);
    const wake = await handler.handle(refund('success'), m);
    expect(woken).not.toHaveBeenCalled();
    wake?.();
    expect(woken).toHaveBeenCalledTimes(1);
  });

  it('does not when nothing was reversed, or the refund did not succeed', async () => {
    await expect(handlerReversing(0).handler.handle(refund('success'), m)).resolves.toBeUndefined();
    await expect(handlerReversing(2).handler.handle(refund('pending'), m)).resolves.toBeUndefined();
  });
});
