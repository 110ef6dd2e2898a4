import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import {
  ErrorCodes,
  INVOICE_ENTRIES_PAGE,
  INVOICE_REFERENCE_PATTERN,
  type GetInvoiceBody,
  type GetInvoiceResult,
  type RpcRequest,
} from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { LedgerQueries } from '../../ledger/ledger-queries';
import { toLedgerEntryView } from '../../ledger/ledger-store';
import { InvoiceStore, toInvoiceView } from '../invoice-store';

/**
 * One invoice of the caller (as debtor or creditor) in the caller's mode, with the entries it
 * nets; another business's or mode's invoice is 404, as an unknown one is.
 */
@Injectable()
export class GetInvoiceUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly invoices: InvoiceStore,
    private readonly queries: LedgerQueries,
  ) {}

  async execute({ ctx, body }: RpcRequest<GetInvoiceBody>): Promise<GetInvoiceResult> {
    const ref = body?.invoice_reference;
    return this.ds.transaction('REPEATABLE READ', async (m) => {
      const row =
        typeof ref === 'string' && INVOICE_REFERENCE_PATTERN.test(ref)
          ? await this.invoices.byReference(m, ref)
          : undefined;
      const mine =
        row &&
        row.mode === ctx.mode &&
        (row.debtor_business_id === ctx.business_id || row.creditor_business_id === ctx.business_id);
      if (!row || !mine) throw new DomainException(ErrorCodes.NotFound, `no invoice ${String(ref)}`);
      const skip = Number.isSafeInteger(body.entries_skip) && body.entries_skip! > 0 ? body.entries_skip! : 0;
      const entries = await this.queries.ofInvoice(m, row.invoice_reference, skip, INVOICE_ENTRIES_PAGE + 1);
      const page = entries.slice(0, INVOICE_ENTRIES_PAGE);
      return {
        invoice: toInvoiceView(row),
        ledger_entries: page.map(toLedgerEntryView),
        has_more_entries: entries.length > INVOICE_ENTRIES_PAGE,
      };
    });
  }
}
