export * from './basis-points';
export * from './currency';
export * from './fees';
export * from './shares';
