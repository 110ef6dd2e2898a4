import { Module } from '@nestjs/common';
import { pingController } from '@payments/platform';
import { LedgerModule } from './ledger/ledger.module';
import { SettlementModule } from './settlement/settlement.module';
import { SplitsModule } from './splits/splits.module';
import { LedgerTransactionsModule } from './transactions/transactions.module';

@Module({
  imports: [LedgerTransactionsModule, SplitsModule, LedgerModule, SettlementModule],
  controllers: [pingController('split-ledger-service')],
})
export class SplitLedgerModule {}
