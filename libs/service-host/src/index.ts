export * from './run-service';
export * from './runtime-module';
