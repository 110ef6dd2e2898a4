import { Type } from '@sinclair/typebox';
import { MAX_AMOUNT } from '@payments/money';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords';
import { ROLES } from './roles';
import { bodyChecker } from './http/typebox-body';

/** A plain address: something@domain.tld, no spaces, at most 254 characters (checked again lower-cased). */
export const EMAIL = Type.String({ pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', maxLength: 254, message: 'must be an e-mail address (at most 254 characters)' });

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254, message: 'must be text of 1 to 254 characters' }),
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX, message: `must be text of 1 to ${PASSWORD_MAX} characters` }),
  },
  { additionalProperties: false },
);

export const NewUserBody = Type.Object(
  {
    email: EMAIL,
    password: Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, message: `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, description: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters` }),
    role: Type.Union(ROLES.map((r) => Type.Literal(r)), { message: `must be one of ${ROLES.join(', ')}` }),
  },
  { additionalProperties: false },
);

export const ModeBody = Type.Object({ mode: Type.Union([Type.Literal('test'), Type.Literal('live')], { message: 'must be test or live' }) }, { additionalProperties: false });

export const RefundBody = Type.Object(
  {
    amount: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AMOUNT, message: 'must be an integer amount in minor units from 1 to 10^12' })),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, message: 'must be text of 1 to 500 characters' })),
  },
  { additionalProperties: false },
);

export const checkLogin = bodyChecker(LoginBody);
export const checkNewUser = bodyChecker(NewUserBody);
export const checkMode = bodyChecker(ModeBody);
export const checkRefund = bodyChecker(RefundBody);
