import { Controller, Injectable, UseInterceptors, applyDecorators, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { ErrorCodes, type RpcContext, type RpcReply } from '@payments/contracts';
import { isConnectionError, isDataError } from '@payments/database';
import { Observable, catchError, map, of, throwError } from 'rxjs';
import { DomainException } from './domain-exception';
import { rootLogger } from './logger';
import { rpcRequestDuration } from './metrics';
import { runWithContext } from './request-context';

/**
 * Wraps every RPC handler: runs it inside the caller's request context (so logs carry the
 * gateway's request id), turns its result into `{ ok: true, data }` and a DomainException into
 * `{ ok: false, error }`, a database data error (SQLSTATE 22xxx) into validation_error. Anything else is a bug: logged here, and the gateway answers 500.
 */
@Injectable()
export class RpcReplyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<RpcReply<unknown>> {
    const payload = context.switchToRpc().getData() as { ctx?: RpcContext } | undefined;
    const pattern = String(context.switchToRpc().getContext()?.getPattern?.() ?? context.getHandler().name);
    const started = process.hrtime.bigint();
    const observe = (outcome: string) =>
      rpcRequestDuration.observe({ pattern, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
    return new Observable<RpcReply<unknown>>((subscriber) =>
      runWithContext({ request_id: payload?.ctx?.request_id }, () =>
        next
          .handle()
          .pipe(
            map((data): RpcReply<unknown> => {
              observe('ok');
              return { ok: true, data };
            }),
            catchError((err) => {
              if (err instanceof DomainException) {
                observe(err.code);
                return of<RpcReply<unknown>>({ ok: false, error: err.toPayload() });
              }
              if (isConnectionError(err)) {
                // A store is unreachable: its transaction rolled back, nothing was written.
                observe('service_unavailable');
                rootLogger().error({ err, pattern }, 'RPC handler could not reach a store');
                return of<RpcReply<unknown>>({ ok: false, error: { code: ErrorCodes.ServiceUnavailable, message: 'a data store is unreachable; try again shortly' } });
              }
              if (isDataError(err)) {
                // PostgreSQL refused a value (SQLSTATE 22xxx): the caller's input, not a bug of ours.
                // The statement failed, so nothing was written. The driver's message may quote the
                // value, so only its code is logged and none of it is returned.
                observe(ErrorCodes.ValidationError);
                rootLogger().warn({ pattern, sqlstate: (err as { code?: string }).code ?? (err as { driverError?: { code?: string } }).driverError?.code }, 'RPC input refused by the database');
                return of<RpcReply<unknown>>({ ok: false, error: { code: ErrorCodes.ValidationError, message: 'a value in the request is outside what can be stored (out of range, impossible date or invalid text)' } });
              }
              observe('error');
              rootLogger().error({ err, pattern }, 'RPC handler failed');
              return throwError(() => ({ message: 'internal error' }));
            }),
          )
          .subscribe(subscriber),
      ),
    );
  }
}

/** A controller of RPC message handlers, each wrapped by RpcReplyInterceptor. */
export function RpcController(): ClassDecorator {
  return applyDecorators(Controller(), UseInterceptors(RpcReplyInterceptor));
}
