export * from './load-config';
export * from './base.config';
export * from './security.config';
