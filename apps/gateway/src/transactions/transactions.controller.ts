import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import {
  RpcPatterns,
  type InitializeTransactionBody,
  type InitializeTransactionResult,
  type TransactionView,
  type VerifyTransactionBody,
} from '@payments/contracts';
import { ApiKeyGuard, PublicKeyAllowed, rpcContext } from '../auth/api-key.guard';
import { GatewayConfig } from '../config/gateway.config';
import { RpcClientPool, TRANSACTION_SERVICE } from '../rpc/rpc-client-pool';
import { InitializeTransactionDto, VerifyTransactionQuery } from './dtos/initialize-transaction.dto';
import { presentInitialized, presentVerified } from './transaction.presenter';

@Controller('v1/transactions')
@UseGuards(ApiKeyGuard)
export class TransactionsController {
  constructor(
    @Inject(TRANSACTION_SERVICE) private readonly transactions: RpcClientPool,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @PublicKeyAllowed()
  async initialize(@Req() req: Request, @Body() dto: InitializeTransactionDto) {
    const result = await this.transactions.call<InitializeTransactionBody, InitializeTransactionResult>(
      RpcPatterns.TransactionsInitialize,
      rpcContext(req),
      { ...dto },
    );
    return presentInitialized(result, this.config.CHECKOUT_URL);
  }

  @Get('verify')
  async verify(@Req() req: Request, @Query() query: VerifyTransactionQuery) {
    const view = await this.transactions.call<VerifyTransactionBody, TransactionView>(RpcPatterns.TransactionsVerify, rpcContext(req), {
      reference: query.reference,
    });
    return presentVerified(view);
  }
}
