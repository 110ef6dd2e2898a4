export * from './currency';
export * from './fees';
