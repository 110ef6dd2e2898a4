export * from './payment-methods';
export * from './mobile-number';
export * from './metadata';
export * from './provider-connections';
export * from './initialize-rules';
