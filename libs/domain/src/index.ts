export * from './payment-methods';
export * from './mobile-number';
