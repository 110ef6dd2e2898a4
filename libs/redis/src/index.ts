export * from './redis';
export * from './deadline';
