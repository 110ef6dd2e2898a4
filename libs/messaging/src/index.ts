export * from './schema';
export * from './kafka';
export * from './outbox';
export * from './consumer';
export * from './kafka-security';
export * from './replay';
export * from './outbox-notifier';
export * from './service-messaging';
