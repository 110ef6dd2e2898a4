import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { LinkSplit, Mode, TransactionStatus } from '@payments/contracts';

/**
 * This service's own copy of the transactions it has heard about (from transaction.status_changed):
 * what splits and refund reversals are computed from, without calling transaction-service.
 */
@Entity({ name: 'ledger_transactions' })
export class LedgerTransactionEntity {
  @PrimaryColumn({ type: 'bigint' }) id: string;
  @Column({ name: 'public_id', type: 'text' }) publicId: string;
  @Column({ name: 'business_id', type: 'integer' }) businessId: number;
  @Column({ type: 'text' }) mode: Mode;
  @Column({ type: 'bigint' }) amount: string;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'text' }) status: TransactionStatus;
  @Column({ type: 'integer' }) version: number;
  @Column({ name: 'link_splits', type: 'jsonb' }) linkSplits: LinkSplit[];
  @Column({ name: 'transaction_created_at', type: 'timestamptz' }) transactionCreatedAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
