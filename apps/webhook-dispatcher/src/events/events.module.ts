import { Module } from '@nestjs/common';
import { TransactionEventsHandler } from './transaction-events.handler';

@Module({ providers: [TransactionEventsHandler], exports: [TransactionEventsHandler] })
export class WebhookEventsModule {}
