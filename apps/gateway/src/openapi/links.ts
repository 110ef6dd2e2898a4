import type { LinkObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * OpenAPI links: which answer supplies the ids another operation needs. Clients and generators
 * read them, and the fuzz stage's stateful phase follows them (create → read, update, refund…).
 */
export const LINKS: Record<string, Record<string, LinkObject>> = {
  TransactionsController_initialize: {
    VerifyTransaction: {
      operationId: 'TransactionsController_verify',
      parameters: { reference: '$response.body#/transaction_reference' },
    },
    FetchTransaction: {
      operationId: 'TransactionsController_fetch',
      parameters: { publicId: '$response.body#/transaction_id' },
    },
    RefundTransaction: {
      operationId: 'TransactionsController_refund',
      requestBody: { transaction_reference: '$response.body#/transaction_reference', amount: 1 },
    },
  },
  LinksController_create: {
    GetLink: { operationId: 'LinksController_get', parameters: { payment_link_id: '$response.body#/payment_link_id' } },
    DeactivateLink: {
      operationId: 'LinksController_deactivate',
      parameters: { payment_link_id: '$response.body#/payment_link_id' },
    },
  },
  TransactionsController_refund: {
    GetRefund: {
      operationId: 'TransactionsController_getRefund',
      parameters: { refund_id: '$response.body#/refund_id' },
    },
    ListRefunds: {
      operationId: 'TransactionsController_listRefunds',
      parameters: { transaction_reference: '$request.body#/transaction_reference' },
    },
  },
  SplitsController_create: {
    UpdateSplitConfig: {
      operationId: 'SplitsController_update',
      parameters: { public_id: '$response.body#/split_config/public_id' },
    },
    DeactivateSplitConfig: {
      operationId: 'SplitsController_deactivate',
      parameters: { public_id: '$response.body#/split_config/public_id' },
    },
  },
  CallbacksController_list: {
    GetCallback: { operationId: 'CallbacksController_get', parameters: { id: '$response.body#/callbacks/0/id' } },
    FetchCallback: {
      operationId: 'CallbacksController_fetch',
      parameters: { callback_id: '$response.body#/callbacks/0/id' },
    },
    UpdateCallback: { operationId: 'CallbacksController_update', parameters: { id: '$response.body#/callbacks/0/id' } },
    CallbackDeliveries: {
      operationId: 'CallbacksController_deliveries',
      parameters: { id: '$response.body#/callbacks/0/id' },
    },
    CallbackSecret: { operationId: 'CallbacksController_secret', parameters: { id: '$response.body#/callbacks/0/id' } },
    DeleteCallback: { operationId: 'CallbacksController_remove', parameters: { id: '$response.body#/callbacks/0/id' } },
    TestCallback: { operationId: 'CallbacksController_test', parameters: { id: '$response.body#/callbacks/0/id' } },
  },
  ConnectionsController_put: {
    GetConnection: { operationId: 'ConnectionsController_get', parameters: { provider: '$request.path.provider' } },
    DeleteConnection: {
      operationId: 'ConnectionsController_remove',
      parameters: { provider: '$request.path.provider' },
    },
  },
  EventsController_list: {
    GetEvent: { operationId: 'EventsController_get', parameters: { id: '$response.body#/events/0/id' } },
    NextEvents: { operationId: 'EventsController_list', parameters: { starting_after: '$response.body#/events/0/id' } },
  },
};
