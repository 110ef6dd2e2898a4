export * from './common';
export * from './topics';
export * from './envelope';
export * from './events';
export * from './errors';
export * from './rpc';
export * from './webhooks';
export * from './ledger';
