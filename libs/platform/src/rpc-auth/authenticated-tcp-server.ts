import { ServerTCP, type TcpOptions, type TcpSocket } from '@nestjs/microservices';
import type { Logger } from 'pino';
import { rpcRefused } from '../metrics';
import { RpcVerifier, rpcSecrets } from './rpc-envelope';

/** Error code of a refused call, so the gateway can tell it from a handler's failure. */
export const RPC_REFUSED = 'rpc_refused';

/**
 * Nest's TCP transport with the signed envelope checked first: a request without valid, fresh,
 * unseen credentials of the right scope never reaches a handler (nor the "no handler" answer, so
 * unknown patterns cannot be probed). The refusal is logged with the peer address and counted.
 */
export class AuthenticatedTcpServer extends ServerTCP {
  constructor(
    options: Required<TcpOptions>['options'],
    private readonly verifier: RpcVerifier,
    private readonly log: Logger,
  ) {
    super(options);
  }

  override async handleMessage(socket: TcpSocket, rawMessage: unknown): Promise<unknown> {
    const packet = (typeof rawMessage === 'object' && rawMessage !== null ? rawMessage : {}) as { pattern?: unknown; data?: unknown; id?: unknown; auth?: unknown };
    const reason = this.verifier.verify(packet);
    if (reason === null) return super.handleMessage(socket, rawMessage);
    rpcRefused.inc({ reason });
    const peer = socket.netSocket;
    this.log.warn(
      { peer: `${peer.remoteAddress ?? '?'}:${peer.remotePort ?? '?'}`, reason, pattern: typeof packet.pattern === 'string' ? packet.pattern.slice(0, 80) : typeof packet.pattern },
      'RPC request refused',
    );
    if (typeof packet.id === 'string' || typeof packet.id === 'number') {
      socket.sendMessage({ id: packet.id, err: { code: RPC_REFUSED, message: `request refused: ${reason}` }, isDisposed: true });
    }
    return undefined;
  }

  override close(): void {
    this.verifier.close();
    super.close();
  }
}

/** How far a request's timestamp may be from the service's clock (both ways). */
export const RPC_MAX_AGE_MS = 30_000;

/** The RPC server of a service, from its validated configuration. */
export function authenticatedRpcServer(
  config: { RPC_HOST: string; RPC_PORT: number; NODE_ENV: string; INTERNAL_RPC_SECRET: string; INTERNAL_RPC_SECRET_PREVIOUS: string },
  logger: Logger,
): AuthenticatedTcpServer {
  const verifier = new RpcVerifier({ secrets: rpcSecrets(config).accepted, maxAgeMs: RPC_MAX_AGE_MS });
  return new AuthenticatedTcpServer({ host: config.RPC_HOST, port: config.RPC_PORT }, verifier, logger.child({ component: 'rpc-auth' }));
}
