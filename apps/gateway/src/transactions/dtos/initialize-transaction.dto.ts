import { IsDefined, IsEmail, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import { MOBILE_MONEY_NUMBER, MOBILE_MONEY_NUMBER_RULE, PAYMENT_METHOD_CODES, PAYMENT_METHOD_TYPES, type PaymentMethodType } from '@payments/domain';
import { SUPPORTED_CURRENCIES, MAX_AMOUNT } from '@payments/money';
import { type MetadataInput } from '@payments/domain';
import { OptionalDescription, OptionalMetadata, OptionalRedirectUrl } from '../../http/validation';

/** POST /v1/transactions body (spec: initialize transaction). */
export class InitializeTransactionDto {
  @IsInt({ message: 'amount must be a positive integer in minor units' })
  @Min(1, { message: 'amount must be a positive integer in minor units' })
  @Max(MAX_AMOUNT, { message: `amount must be at most ${MAX_AMOUNT}` })
  amount: number;

  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  email: string;

  @IsIn(SUPPORTED_CURRENCIES, { message: `currency must be one of ${SUPPORTED_CURRENCIES.join(', ')}` })
  currency: string;

  @IsOptional()
  @IsIn(PAYMENT_METHOD_TYPES, { message: `payment_method_type must be ${PAYMENT_METHOD_TYPES.join(' or ')}` })
  payment_method_type?: PaymentMethodType;

  @IsOptional()
  @IsIn(PAYMENT_METHOD_CODES, { message: `payment_method_code must be one of ${PAYMENT_METHOD_CODES.join(', ')}` })
  payment_method_code?: string;

  @ValidateIf((o) => o.mobile_money_number !== undefined || o.payment_method_type === 'mobile_money')
  @IsDefined({ message: 'mobile_money_number is required for mobile_money payments' })
  @IsString({ message: 'mobile_money_number must be a string' })
  @Matches(MOBILE_MONEY_NUMBER, { message: `mobile_money_number ${MOBILE_MONEY_NUMBER_RULE}` })
  mobile_money_number?: string;

  @IsOptional()
  @IsString()
  @Length(1, 100, { message: 'transaction_reference must be 1 to 100 characters' })
  @Matches(/^[A-Za-z0-9._:-]+$/, { message: 'transaction_reference may contain letters, digits and . _ : - only' })
  transaction_reference?: string;

  @OptionalRedirectUrl('success_url')
  success_url?: string;

  @OptionalRedirectUrl('failure_url')
  failure_url?: string;

  @IsOptional()
  @IsIn(['success', 'failed'], { message: 'requested_response must be success or failed' })
  requested_response?: 'success' | 'failed';

  @OptionalMetadata()
  metadata?: MetadataInput;

  @OptionalDescription()
  description?: string | null;
}

/** GET /v1/transactions/verify query. */
export class VerifyTransactionQuery {
  @IsString({ message: 'reference is required' })
  @Length(1, 100, { message: 'reference must be 1 to 100 characters' })
  reference: string;
}
