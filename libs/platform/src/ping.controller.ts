import { MessagePattern } from '@nestjs/microservices';
import { hostname } from 'node:os';
import { RpcPatterns, type PingReply } from '@payments/contracts';
import { RpcController } from './rpc-reply';

/** Answers the gateway's RPC ping; the instance id lets tests see load balancing at work. */
export function pingController(service: string) {
  @RpcController()
  class PingController {
    @MessagePattern(RpcPatterns.Ping)
    ping(): PingReply {
      return { service, instance: `${hostname()}:${process.pid}` };
    }
  }
  return PingController;
}
