import { Module } from '@nestjs/common';
import { CallbackStore } from './callbacks/callback-store';
import { DeliveryAdminStore } from './delivery/delivery-admin-store';
import { DeliveryStore } from './delivery/delivery-store';
import { EventsStore } from './events/events-store';

const STORES = [CallbackStore, DeliveryStore, DeliveryAdminStore, EventsStore];

/**
 * The service's stores, its only SQL (table ownership is pinned by
 * libs/database/src/table-ownership.spec.ts), one layer below every domain module so that
 * callbacks, delivery and events can read each other's rows without a module import cycle.
 */
@Module({ providers: STORES, exports: STORES })
export class StoresModule {}
