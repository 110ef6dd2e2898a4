import { SetMetadata } from '@nestjs/common';

/**
 * What the generated OpenAPI document cannot read from a handler's signature: the values a path
 * parameter may take, and a body whose shape depends on one of them (one DTO per value). Read by
 * buildOpenApiDocument; the handler still checks both itself.
 */
export const PATH_ENUMS = 'openapi-path-enums';
export const BODY_ONE_OF = 'openapi-body-one-of';

/** Documents a path parameter as one of `values` (any other value answers 404). */
export const ApiPathEnum = (name: string, values: readonly string[]) => SetMetadata(PATH_ENUMS, { [name]: [...values] });

/** Documents the request body as one of these DTO classes (their class-validator schemas). */
export const ApiBodyOneOf = (...dtos: Function[]) => SetMetadata(BODY_ONE_OF, dtos.map((d) => d.name));
