export * from './entities';
export * from './kafka';
export * from './outbox';
export * from './consumer';
