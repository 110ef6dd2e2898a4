import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { LedgerEntryKind, LedgerEntryStatus, Mode, RefundStatus } from '@payments/contracts';

/** Maps ledger_entries (schema: migrations/1764000000000); writes go through LedgerStore. */
@Entity({ name: 'ledger_entries' })
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ name: 'public_id', type: 'uuid' }) publicId: string;
  @Column({ type: 'text' }) kind: LedgerEntryKind;
  @Column({ type: 'text' }) mode: Mode;
  @Column({ name: 'transaction_id', type: 'bigint' }) transactionId: string;
  @Column({ name: 'transaction_public_id', type: 'text' }) transactionPublicId: string;
  @Column({ name: 'split_config_id', type: 'bigint', nullable: true }) splitConfigId: string | null;
  @Column({ name: 'split_config_version', type: 'integer', nullable: true }) splitConfigVersion: number | null;
  @Column({ name: 'link_split_index', type: 'integer', nullable: true }) linkSplitIndex: number | null;
  @Column({ name: 'refund_id', type: 'bigint', nullable: true }) refundId: string | null;
  @Column({ name: 'reverses_entry_id', type: 'bigint', nullable: true }) reversesEntryId: string | null;
  @Column({ name: 'creditor_business_id', type: 'integer' }) creditorBusinessId: number;
  @Column({ name: 'debtor_business_id', type: 'integer' }) debtorBusinessId: number;
  @Column({ type: 'bigint' }) amount: string;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'boolean' }) capped: boolean;
  @Column({ type: 'text' }) status: LedgerEntryStatus;
  @Column({ name: 'invoice_reference', type: 'text', nullable: true }) invoiceReference: string | null;
  @Column({ name: 'settlement_date', type: 'timestamptz', nullable: true }) settlementDate: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

/** The ledger's copy of the refunds it has heard about (from refund.status_changed). */
@Entity({ name: 'ledger_refunds' })
export class LedgerRefundEntity {
  @PrimaryColumn({ type: 'bigint' }) id: string;
  @Column({ name: 'public_id', type: 'text' }) publicId: string;
  @Column({ name: 'transaction_id', type: 'bigint' }) transactionId: string;
  @Column({ type: 'bigint' }) amount: string;
  @Column({ type: 'text' }) status: RefundStatus;
  @Column({ type: 'integer' }) version: number;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
