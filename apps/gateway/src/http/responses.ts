import { Closed, Type, type TProperties } from '@payments/contracts/schemas';

/** `result: "success"`, first field of every JSON answer of the public API. */
export const Success = Type.Literal('success');

/** A closed success body: `result` plus the given fields. */
export const Ok = <P extends TProperties>(properties: P, description?: string) =>
  Closed({ result: Success, ...properties }, description);
