export * from './load-config';
export * from './base.config';
