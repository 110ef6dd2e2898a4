export * from './dependency-error';
export * from './data-source';
export * from './pg-data-source';
export * from './migration-names';
export * from './query';
export * from './schema-status';
export * from './data-error';
export * from './keyset-page';
