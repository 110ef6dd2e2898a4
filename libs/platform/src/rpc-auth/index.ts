export * from './rpc-envelope';
export * from './authenticated-rpc-server';
