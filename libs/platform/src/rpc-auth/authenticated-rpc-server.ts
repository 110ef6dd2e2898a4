import type { Logger } from 'pino';
import { FramedRpcServer } from '../rpc-transport/framed-rpc-server';
import { RpcVerifier, rpcSecrets } from './rpc-envelope';

/** How far a request's timestamp may be from the service's clock (both ways). */
export const RPC_MAX_AGE_MS = 30_000;

/** The RPC server of a service, from its validated configuration. */
export function authenticatedRpcServer(
  config: {
    RPC_HOST: string;
    RPC_PORT: number;
    RPC_MAX_FRAME_BYTES: number;
    RPC_MAX_CONNECTIONS: number;
    RPC_FRAME_TIMEOUT_MS: number;
    NODE_ENV: string;
    INTERNAL_RPC_SECRET: string;
    INTERNAL_RPC_SECRET_PREVIOUS: string;
  },
  logger: Logger,
): FramedRpcServer {
  const verifier = new RpcVerifier({ secrets: rpcSecrets(config).accepted, maxAgeMs: RPC_MAX_AGE_MS });
  return new FramedRpcServer(
    {
      host: config.RPC_HOST,
      port: config.RPC_PORT,
      maxFrameBytes: config.RPC_MAX_FRAME_BYTES,
      maxConnections: config.RPC_MAX_CONNECTIONS,
      frameTimeoutMs: config.RPC_FRAME_TIMEOUT_MS,
    },
    verifier,
    logger.child({ component: 'rpc-auth' }),
  );
}
