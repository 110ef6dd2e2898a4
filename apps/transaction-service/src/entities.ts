import { OutboxEventEntity } from '@payments/messaging';
import { TransactionEntity } from './transactions/transaction.entity';

export const AppModuleEntities = [TransactionEntity, OutboxEventEntity];
