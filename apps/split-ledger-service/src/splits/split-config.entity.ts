import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { Mode, SplitRole, SplitType } from '@payments/contracts';

/** Maps split_configs (schema: migrations/1764000000000); queries are SQL in SplitConfigStore. */
@Entity({ name: 'split_configs' })
export class SplitConfigEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ name: 'public_id', type: 'uuid' }) publicId: string;
  @Column({ name: 'owner_business_id', type: 'integer' }) ownerBusinessId: number;
  @Column({ name: 'partner_business_id', type: 'integer' }) partnerBusinessId: number;
  @Column({ type: 'text' }) mode: Mode;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ name: 'split_type', type: 'text' }) splitType: SplitType;
  @Column({ name: 'split_value', type: 'bigint' }) splitValue: string;
  @Column({ name: 'split_role', type: 'text' }) splitRole: SplitRole;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ name: 'is_active', type: 'boolean' }) isActive: boolean;
  @Column({ type: 'integer' }) version: number;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** The terms of a split config over [valid_from, valid_to); valid_to null = in force now. */
@Entity({ name: 'split_config_versions' })
export class SplitConfigVersionEntity {
  @PrimaryColumn({ name: 'split_config_id', type: 'bigint' }) splitConfigId: string;
  @PrimaryColumn({ type: 'integer' }) version: number;
  @Column({ name: 'split_type', type: 'text' }) splitType: SplitType;
  @Column({ name: 'split_value', type: 'bigint' }) splitValue: string;
  @Column({ name: 'split_role', type: 'text' }) splitRole: SplitRole;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ name: 'valid_from', type: 'timestamptz' }) validFrom: Date;
  @Column({ name: 'valid_to', type: 'timestamptz', nullable: true }) validTo: Date | null;
}
