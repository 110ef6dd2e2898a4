import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  LedgerRpcPatterns,
  type CheckoutRpcRequest,
  type GetInvoiceBody,
  type ListInvoicesBody,
  type MarkInvoicePaidBody,
  type RpcRequest,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { GetInvoiceUseCase } from './usecases/get-invoice.usecase';
import { ListInvoicesUseCase } from './usecases/list-invoices.usecase';
import { MarkInvoicePaidUseCase } from './usecases/mark-invoice-paid.usecase';
import { RunSettlementUseCase } from './usecases/run-settlement.usecase';

/** Admin requests carry only a request id (the gateway's AdminGuard has authorised them). */
type AdminRpcRequest<T> = CheckoutRpcRequest<T>;

@RpcController()
export class SettlementRpcController {
  constructor(
    private readonly run: RunSettlementUseCase,
    private readonly markPaid: MarkInvoicePaidUseCase,
    private readonly list: ListInvoicesUseCase,
    private readonly get: GetInvoiceUseCase,
  ) {}

  @MessagePattern(LedgerRpcPatterns.SettlementRun)
  onRun(@Payload() req: AdminRpcRequest<unknown>) {
    return this.run.execute(req.ctx.request_id);
  }

  @MessagePattern(LedgerRpcPatterns.InvoiceMarkPaid)
  onMarkPaid(@Payload() req: AdminRpcRequest<MarkInvoicePaidBody>) {
    return this.markPaid.execute(req);
  }

  @MessagePattern(LedgerRpcPatterns.InvoicesList)
  onList(@Payload() req: RpcRequest<ListInvoicesBody>) {
    return this.list.execute(req);
  }

  @MessagePattern(LedgerRpcPatterns.InvoicesGet)
  onGet(@Payload() req: RpcRequest<GetInvoiceBody>) {
    return this.get.execute(req);
  }
}
