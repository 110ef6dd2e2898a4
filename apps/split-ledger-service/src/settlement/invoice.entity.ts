import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { InvoiceStatus, Mode } from '@payments/contracts';

/** Maps settlement_invoices (schema: migrations/1764000000000). */
@Entity({ name: 'settlement_invoices' })
export class SettlementInvoiceEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ name: 'invoice_reference', type: 'text' }) invoiceReference: string;
  @Column({ type: 'text' }) mode: Mode;
  @Column({ name: 'debtor_business_id', type: 'integer' }) debtorBusinessId: number;
  @Column({ name: 'creditor_business_id', type: 'integer' }) creditorBusinessId: number;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'bigint' }) amount: string;
  @Column({ type: 'text' }) status: InvoiceStatus;
  @Column({ name: 'entry_count', type: 'integer' }) entryCount: number;
  @Column({ name: 'period_end', type: 'timestamptz' }) periodEnd: Date;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true }) paidAt: Date | null;
}
