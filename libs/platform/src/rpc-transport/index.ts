export * from './frame-codec';
export * from './framed-rpc-client';
export * from './framed-rpc-server';
export * from './connection-guard';
