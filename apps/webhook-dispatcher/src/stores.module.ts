import { Module } from '@nestjs/common';
import { CallbackStore } from './callbacks/callback-store';
import { DeliveryAdminStore } from './delivery/delivery-admin-store';
import { DeliveryStore } from './delivery/delivery-store';
import { EventsStore } from './events/events-store';

const STORES = [CallbackStore, DeliveryStore, DeliveryAdminStore, EventsStore];

/**
 * The service's stores (its only SQL; which store owns which table is pinned by
 * libs/database/src/table-ownership.spec.ts), shared by the domain modules. They live in their
 * domain's folder; this module only makes them one layer below every domain module, so that
 * callbacks, delivery and events can read each other's rows without importing each other's
 * modules in a cycle.
 */
@Module({ providers: STORES, exports: STORES })
export class StoresModule {}
