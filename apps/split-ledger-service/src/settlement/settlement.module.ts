import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { InvoiceStore } from './invoice-store';
import { SettlementRpcController } from './settlement.rpc-controller';
import { SettlementScheduler } from './settlement.scheduler';
import { GetInvoiceUseCase } from './usecases/get-invoice.usecase';
import { ListInvoicesUseCase } from './usecases/list-invoices.usecase';
import { MarkInvoicePaidUseCase } from './usecases/mark-invoice-paid.usecase';
import { RunSettlementUseCase } from './usecases/run-settlement.usecase';

@Module({
  imports: [LedgerModule],
  controllers: [SettlementRpcController],
  providers: [
    InvoiceStore,
    RunSettlementUseCase,
    MarkInvoicePaidUseCase,
    ListInvoicesUseCase,
    GetInvoiceUseCase,
    SettlementScheduler,
  ],
})
export class SettlementModule {}
