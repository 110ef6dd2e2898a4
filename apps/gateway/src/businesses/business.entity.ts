import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'businesses' })
export class BusinessEntity {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'text' }) name: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

/** An API key, stored only as its SHA-256; `prefix` is what support staff may see. */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'business_id', type: 'integer' }) businessId: number;
  @Column({ type: 'text' }) mode: 'test' | 'live';
  @Column({ name: 'key_type', type: 'text' }) keyType: 'secret' | 'public';
  @Column({ name: 'key_hash', type: 'text' }) keyHash: string;
  @Column({ type: 'text' }) prefix: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true }) expiresAt: Date | null;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
}
