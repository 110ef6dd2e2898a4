export * from './rpc-envelope';
export * from './authenticated-tcp-server';
export * from './signing-serializer';
