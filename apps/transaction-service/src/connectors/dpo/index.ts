export * from './dpo-amount';
export * from './dpo-connector';
export * from './dpo-credentials';
export { describeForLog, safeReason } from './dpo-log';
export * from './dpo-reply';
export * from './dpo-request';
export * from './dpo-status';
export * from './dpo-xml';
export { postXml, type HttpOutcome } from './dpo-http';
