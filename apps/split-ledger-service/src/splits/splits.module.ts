import { Module } from '@nestjs/common';
import { SplitConfigStore } from './split-config-store';
import { SplitsRpcController } from './splits.rpc-controller';
import { CreateSplitConfigUseCase } from './usecases/create-split-config.usecase';
import { DeactivateSplitConfigUseCase } from './usecases/deactivate-split-config.usecase';
import { ListSplitConfigsUseCase } from './usecases/list-split-configs.usecase';
import { UpdateSplitConfigUseCase } from './usecases/update-split-config.usecase';

@Module({
  controllers: [SplitsRpcController],
  providers: [
    SplitConfigStore,
    CreateSplitConfigUseCase,
    ListSplitConfigsUseCase,
    UpdateSplitConfigUseCase,
    DeactivateSplitConfigUseCase,
  ],
  exports: [SplitConfigStore],
})
export class SplitsModule {}
