import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { LinkSplit, Mode, TransactionStatus } from '@payments/contracts';

/** A payment. Amounts are integer minor units; `version` increases with every status change. */
@Entity({ name: 'transactions' })
export class TransactionEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ name: 'public_id', type: 'text' }) publicId: string;
  @Column({ name: 'business_id', type: 'integer' }) businessId: number;
  @Column({ type: 'text' }) mode: Mode;
  @Column({ type: 'text' }) reference: string;
  @Column({ type: 'bigint' }) amount: string;
  @Column({ type: 'bigint' }) charges: string;
  @Column({ type: 'bigint' }) total: string;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'text' }) email: string;
  @Column({ name: 'payment_method_type', type: 'text', nullable: true }) paymentMethodType: string | null;
  @Column({ name: 'payment_method_code', type: 'text', nullable: true }) paymentMethodCode: string | null;
  @Column({ name: 'mobile_money_number', type: 'text', nullable: true }) mobileMoneyNumber: string | null;
  @Column({ name: 'requested_response', type: 'text', nullable: true }) requestedResponse: string | null;
  @Column({ type: 'text' }) status: TransactionStatus;
  @Column({ type: 'text' }) message: string;
  @Column({ name: 'checkout_id', type: 'text' }) checkoutId: string;
  @Column({ name: 'success_url', type: 'text', nullable: true }) successUrl: string | null;
  @Column({ name: 'failure_url', type: 'text', nullable: true }) failureUrl: string | null;
  @Column({ name: 'payment_link_id', type: 'text', nullable: true }) paymentLinkId: string | null;
  @Column({ name: 'link_splits', type: 'jsonb' }) linkSplits: LinkSplit[];
  @Column({ name: 'settle_at', type: 'timestamptz', nullable: true }) settleAt: Date | null;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @Column({ type: 'integer' }) version: number;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
