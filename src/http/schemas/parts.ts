/**
 * The building blocks of the API's TypeBox schemas, shared by every resource. The schemas are the one
 * source of the OpenAPI document (and, through it, of the TypeScript client's types) and of Fastify's
 * checks of query strings, path parameters and headers.
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { LIMITS } from '../../domain/types.js';

/** A reference to a shared schema; it appears once in the document, under components.schemas. */
export const ref = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T>>(Type.Ref(schema.$id!));

/** The same value, or `null` (which clears the field in a merge patch). */
export function orNull<T extends TSchema>(schema: T, options: Record<string, unknown> = {}) {
  if (typeof schema.type === 'string') {
    // An enumeration lists every value allowed: null has to be one of them too.
    const values = Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {};
    return Type.Unsafe<Static<T> | null>({ ...schema, ...options, type: [schema.type, 'null'], ...values });
  }
  if (Array.isArray(schema.anyOf)) {
    return Type.Unsafe<Static<T> | null>({
      ...schema,
      ...options,
      anyOf: [...schema.anyOf, { type: 'null' }],
    });
  }
  return Type.Unsafe<Static<T> | null>({ ...options, anyOf: [schema, { type: 'null' }] });
}

export const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;
export const Count = (description: string) =>
  Type.Integer({ minimum: 0, maximum: SAFE_INTEGER, description });
export const Day = (description = 'A calendar day, `YYYY-MM-DD`.') =>
  Type.String({ format: 'date', description, examples: ['2027-03-01'] });
export const Time = (description: string) =>
  Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description, examples: ['09:00'] });
export const FreeText = (description: string) => Type.String({ maxLength: LIMITS.freeText, description });
export const NonEmptyText = (description: string, maxLength: number = LIMITS.freeText) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', description });
export const TextList = (maxItems: number, description: string) =>
  Type.Array(Type.String({ maxLength: LIMITS.freeText }), { maxItems, description });
export const Uuid = (description: string) => Type.String({ format: 'uuid', description });
export const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
/** A value the service owns, in a response: clients read it and never set it. */
export const readOnly = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T>>({ ...schema, readOnly: true });

/**
 * The query string of a route that takes no parameters. Every /v1 route declares its query string
 * (checked by Fastify and by ../query.ts), and a parameter it does not declare is a 400 naming
 * `query.<name>`.
 */
export const NoQuery = Type.Object({}, { additionalProperties: false });
