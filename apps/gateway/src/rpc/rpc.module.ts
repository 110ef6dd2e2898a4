import { Global, Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { RpcSigner, rootLogger, rpcSecrets, type RpcScope } from '@payments/platform';
import { GatewayConfig } from '../config/gateway.config';
import {
  ADMIN_SPLIT_LEDGER_SERVICE,
  ADMIN_TRANSACTION_SERVICE,
  ADMIN_WEBHOOK_DISPATCHER,
  RpcClientPool,
  SPLIT_LEDGER_SERVICE,
  TRANSACTION_SERVICE,
  WEBHOOK_DISPATCHER,
} from './rpc-client-pool';

function pool(name: string, pick: (c: GatewayConfig) => string, scope: RpcScope = 'merchant') {
  return (config: GatewayConfig) =>
    new RpcClientPool(
      name,
      pick(config),
      config.RPC_TIMEOUT_MS,
      config.RPC_CONNECT_TIMEOUT_MS,
      config.RPC_DNS_REFRESH_MS,
      rootLogger() as Logger,
      new RpcSigner(rpcSecrets(config).current, scope),
      config.RPC_MAX_FRAME_BYTES,
    );
}

@Global()
@Module({
  providers: [
    {
      provide: TRANSACTION_SERVICE,
      useFactory: pool('transaction-service', (c) => c.TRANSACTION_SERVICE_ADDRS),
      inject: [GatewayConfig],
    },
    {
      provide: SPLIT_LEDGER_SERVICE,
      useFactory: pool('split-ledger-service', (c) => c.SPLIT_LEDGER_SERVICE_ADDRS),
      inject: [GatewayConfig],
    },
    {
      provide: WEBHOOK_DISPATCHER,
      useFactory: pool('webhook-dispatcher', (c) => c.WEBHOOK_DISPATCHER_ADDRS),
      inject: [GatewayConfig],
    },
    {
      provide: ADMIN_TRANSACTION_SERVICE,
      useFactory: pool('transaction-service', (c) => c.TRANSACTION_SERVICE_ADDRS, 'admin'),
      inject: [GatewayConfig],
    },
    {
      provide: ADMIN_SPLIT_LEDGER_SERVICE,
      useFactory: pool('split-ledger-service', (c) => c.SPLIT_LEDGER_SERVICE_ADDRS, 'admin'),
      inject: [GatewayConfig],
    },
    {
      provide: ADMIN_WEBHOOK_DISPATCHER,
      useFactory: pool('webhook-dispatcher', (c) => c.WEBHOOK_DISPATCHER_ADDRS, 'admin'),
      inject: [GatewayConfig],
    },
  ],
  exports: [
    TRANSACTION_SERVICE,
    SPLIT_LEDGER_SERVICE,
    WEBHOOK_DISPATCHER,
    ADMIN_TRANSACTION_SERVICE,
    ADMIN_SPLIT_LEDGER_SERVICE,
    ADMIN_WEBHOOK_DISPATCHER,
  ],
})
export class RpcModule implements OnModuleInit, OnApplicationShutdown {
  private readonly pools: RpcClientPool[];

  constructor(
    @Inject(TRANSACTION_SERVICE) tx: RpcClientPool,
    @Inject(SPLIT_LEDGER_SERVICE) ledger: RpcClientPool,
    @Inject(WEBHOOK_DISPATCHER) hooks: RpcClientPool,
    @Inject(ADMIN_TRANSACTION_SERVICE) adminTx: RpcClientPool,
    @Inject(ADMIN_SPLIT_LEDGER_SERVICE) adminLedger: RpcClientPool,
    @Inject(ADMIN_WEBHOOK_DISPATCHER) adminHooks: RpcClientPool,
  ) {
    this.pools = [tx, ledger, hooks, adminTx, adminLedger, adminHooks];
  }

  async onModuleInit(): Promise<void> {
    await Promise.all(this.pools.map((p) => p.start()));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.pools.map((p) => p.close()));
  }
}
