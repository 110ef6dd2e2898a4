/**
 * `@payments/contracts/schemas`: the TypeBox schema values (response bodies, webhook payloads,
 * health answers) behind the gateway's OpenAPI document and the specs that check answers
 * against them. Kept out of the `@payments/contracts` barrel so the services, which only need
 * the types, never load TypeBox nor build these schemas at start-up.
 */
export * from './schema-kit';
export * from './annotation-schemas';
export * from './health-schemas';
export * from './webhook-payloads';
