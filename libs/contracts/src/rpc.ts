import type { KeyType, Mode } from './common';
import type { ErrorPayload } from './errors';
import type { TransactionStatus } from './events';

/**
 * Request/response message patterns between the gateway and the services (TCP RPC).
 * Every request is an RpcRequest<Body>; every reply is an RpcReply<Result>.
 */
export const RpcPatterns = {
  Ping: 'system.ping',
  TransactionsInitialize: 'transactions.initialize',
  TransactionsVerify: 'transactions.verify',
} as const;
export type RpcPattern = (typeof RpcPatterns)[keyof typeof RpcPatterns];

/** Who is asking: set by the gateway from the API key, never by the caller's body. */
export interface RpcContext {
  request_id: string;
  business_id: number;
  mode: Mode;
  key_type: KeyType;
}

export interface RpcRequest<TBody = unknown> {
  ctx: RpcContext;
  body: TBody;
}

export type RpcReply<T> = { ok: true; data: T } | { ok: false; error: ErrorPayload };

export interface PingReply {
  service: string;
  instance: string;
}

// ---- transactions.initialize
export interface InitializeTransactionBody {
  amount: number;
  email: string;
  currency: string;
  payment_method_type?: 'mobile_money' | 'card';
  payment_method_code?: string;
  mobile_money_number?: string;
  transaction_reference?: string;
  success_url?: string;
  failure_url?: string;
  requested_response?: 'success' | 'failed';
}
export interface InitializeTransactionResult {
  transaction_id: string;
  transaction_reference: string;
  amount: number;
  charges: number;
  total: number;
  currency: string;
  status: TransactionStatus;
  message: string;
  checkout_url: string | null;
}

// ---- transactions.verify
export interface VerifyTransactionBody {
  reference: string;
}
export interface TransactionView {
  transaction_id: string;
  transaction_reference: string;
  amount: number;
  charges: number;
  total: number;
  currency: string;
  status: TransactionStatus;
  message: string;
  email: string;
  checkout_id: string | null;
  success_url: string | null;
  failure_url: string | null;
  date_created: string;
}
