import { Module } from '@nestjs/common';
import { DeliveryModule } from '../delivery/delivery.module';
import { StoresModule } from '../stores.module';
import { CallbacksRpcController } from './callbacks.rpc-controller';
import { ReconcileCallbacksRpcController } from './reconcile.rpc-controller';
import { CreateCallbackUseCase } from './usecases/create-callback.usecase';
import { DeleteCallbackUseCase } from './usecases/delete-callback.usecase';
import { GetCallbackUseCase } from './usecases/get-callback.usecase';
import { ListCallbacksUseCase } from './usecases/list-callbacks.usecase';
import { ReconcileCallbacksUseCase } from './usecases/reconcile-callbacks.usecase';
import { RevealSecretUseCase } from './usecases/reveal-secret.usecase';
import { RollSecretUseCase } from './usecases/roll-secret.usecase';
import { TestPingUseCase } from './usecases/test-ping.usecase';
import { UpdateCallbackUseCase } from './usecases/update-callback.usecase';

/**
 * Callbacks (webhook endpoints): create, list, get, update, delete, their signing secret, a test
 * ping; and reconcile's page of callbacks (an operator pattern, its own controller).
 */
@Module({
  imports: [StoresModule, DeliveryModule],
  controllers: [CallbacksRpcController, ReconcileCallbacksRpcController],
  providers: [
    CreateCallbackUseCase,
    ListCallbacksUseCase,
    GetCallbackUseCase,
    UpdateCallbackUseCase,
    DeleteCallbackUseCase,
    RevealSecretUseCase,
    RollSecretUseCase,
    TestPingUseCase,
    ReconcileCallbacksUseCase,
  ],
})
export class CallbacksModule {}
