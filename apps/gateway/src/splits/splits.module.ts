import { Module } from '@nestjs/common';
import { SettlementAdminController } from './settlement-admin.controller';
import { SplitsController } from './splits.controller';

/**
 * Split configs, ledger, invoices (/v1/splits) and the settlement admin API, all served by
 * split-ledger-service over RPC. Guards, the key cache and BusinessesService come from the
 * global AuthModule.
 */
@Module({
  controllers: [SplitsController, SettlementAdminController],
})
export class SplitsModule {}
