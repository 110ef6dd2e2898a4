import 'reflect-metadata';
import type { Static, TSchema } from '@sinclair/typebox';

/** What a handler answers on success, as the OpenAPI document states it. */
export interface ApiResponseSpec {
  status: number;
  description: string;
  /** JSON body schema; absent for a redirect or a non-JSON body. */
  schema?: TSchema;
  /** Content type of a non-JSON body (text/html, text/css). */
  contentType?: string;
}

const API_RESPONSE = Symbol('api-response');

type Handler<T> = (...args: never[]) => Promise<T> | T;

/**
 * Declares a handler's success answer. The handler must return the schema's static type, so the
 * compiler ties what the handler sends to what the OpenAPI document says; the document is
 * generated from this metadata. Read when the document is built, never per request.
 */
export function ApiResponds<S extends TSchema>(status: number, description: string, schema: S) {
  return <F extends Handler<Static<S>>>(
    _target: object,
    _key: string | symbol,
    descriptor: TypedPropertyDescriptor<F>,
  ): void => {
    Reflect.defineMetadata(API_RESPONSE, { status, description, schema } satisfies ApiResponseSpec, descriptor.value!);
  };
}

/**
 * A success answer the handler writes itself (HTML page, stylesheet, redirect, or a JSON body
 * sent through the response object, which must then be typed with the schema's static type).
 */
export function ApiRespondsRaw(spec: ApiResponseSpec): MethodDecorator {
  return (_target, _key, descriptor) => {
    Reflect.defineMetadata(API_RESPONSE, spec, descriptor.value as object);
  };
}

/** The declared success answer of a handler function, if any. */
export function apiResponseOf(handler: Function): ApiResponseSpec | undefined {
  return Reflect.getMetadata(API_RESPONSE, handler) as ApiResponseSpec | undefined;
}
