import type { Serializer } from '@nestjs/microservices';
import type { RpcSigner } from './rpc-envelope';

/** Client side of the envelope: adds `auth` to every outgoing request packet. */
export class SigningSerializer implements Serializer {
  constructor(private readonly signer: RpcSigner) {}

  serialize(packet: { pattern: unknown; data: unknown; id?: string }): unknown {
    const pattern = typeof packet.pattern === 'string' ? packet.pattern : JSON.stringify(packet.pattern);
    return { ...packet, auth: this.signer.sign(pattern, packet.data) };
  }
}
