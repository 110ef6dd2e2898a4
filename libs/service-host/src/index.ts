export * from './service-host';
