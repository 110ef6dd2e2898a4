/**
 * `@payments/contracts/schemas`: the TypeBox schema values behind the OpenAPI document and the specs, kept out of the
 * `@payments/contracts` barrel so the services, which only need the types, never load TypeBox at start-up.
 */
export * from './schema-kit';
export * from './annotation-schemas';
export * from './health-schemas';
export * from './webhook-payloads';
