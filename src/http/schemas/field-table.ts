/**
 * API schemas derived from a domain field table (field-descriptions.ts): a resource as read, its
 * create body and its merge patch, field by field. The domain checks bodies (after the 404 and 409
 * checks, D5); these schemas document them and describe every response.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import type {
  FieldDescription,
  FieldKind,
  WritableFieldDescription,
} from '../../domain/field-descriptions.js';
import { Count, Day, orNull, readOnly } from './parts.js';

/** The schemas a kind needs from the resource's own file (date ranges, rooms, cancellation steps). */
export interface KindSchemas {
  dateRange?: TSchema;
  roomRates?: TSchema;
  cancellationLadder?: TSchema;
}

const withoutFullStop = (text: string) => text.replace(/\.$/, '');

/** What a field is, in a sentence: its hint, or its label. */
export function describeField(field: FieldDescription): string {
  return field.hint ?? `${field.label}.`;
}

function needed(schema: TSchema | undefined, kind: FieldKind['type']): TSchema {
  if (!schema) throw new Error(`a field of kind ${kind} needs its schema`);
  return schema;
}

/** The value of a writable field, described by its kind and limits. */
export function valueSchema(field: WritableFieldDescription, parts: KindSchemas = {}): TSchema {
  const description = describeField(field);
  const { kind } = field;
  switch (kind.type) {
    case 'line':
      return Type.String({
        maxLength: kind.maxLength,
        description: `${withoutFullStop(description)}. One line: no line breaks or other control characters.`,
      });
    case 'text':
      return Type.String({ maxLength: kind.maxLength, description });
    case 'email':
      return Type.String({
        maxLength: kind.maxLength,
        description: `${withoutFullStop(description)}. One address such as \`sales@hotel.example\`: no name, no list.`,
        examples: ['sales@hotel.example'],
      });
    case 'https_url':
      return Type.String({ maxLength: kind.maxLength, pattern: '^https://', description });
    case 'count':
      return Count(description);
    case 'amount':
      return Type.Number({
        minimum: 0,
        description: `${withoutFullStop(description)}. A finite number >= 0 with at most two decimals.`,
      });
    case 'percent':
      return Type.Number({
        minimum: 0,
        maximum: 100,
        description: `${withoutFullStop(description)}. From 0 to 100, at most two decimals.`,
      });
    case 'date':
      return Day(
        kind.notInPast
          ? `${withoutFullStop(description)}. \`YYYY-MM-DD\`, not a day that has ended everywhere on Earth.`
          : `${withoutFullStop(description)}. \`YYYY-MM-DD\`.`,
      );
    case 'date_range':
      return needed(parts.dateRange, kind.type);
    case 'currency':
      return Type.String({ pattern: '^[A-Z]{3}$', description, examples: ['EUR'] });
    case 'choice':
      return Type.Unsafe<string>({ type: 'string', enum: [...kind.choices], description });
    case 'room_rates':
      return needed(parts.roomRates, kind.type);
    case 'cancellation_ladder':
      return needed(parts.cancellationLadder, kind.type);
  }
}

const writable = (fields: readonly FieldDescription[]) =>
  fields.filter((field): field is WritableFieldDescription => field.access === 'writable');

/**
 * The resource as read: each writable field (nullable where `null` is a value), and the read-only
 * fields as the resource gives them (`readOnly` lists their schemas, in any order; the table's order
 * is kept). A read-only field missing from `readOnly` is an error of the caller.
 */
export function readProperties(
  fields: readonly FieldDescription[],
  readOnlyFields: Record<string, TSchema>,
  parts: KindSchemas = {},
): Record<string, TSchema> {
  const properties: Record<string, TSchema> = {};
  for (const field of fields) {
    if (field.access === 'writable') {
      const schema = valueSchema(field, parts);
      properties[field.name] = field.whenNull === 'null' ? orNull(schema) : schema;
    } else {
      const schema = readOnlyFields[field.name];
      if (!schema) throw new Error(`the read-only field ${field.name} needs its schema`);
      properties[field.name] = readOnly(schema);
    }
  }
  return properties;
}

/** A create body: the required fields, and the others optional (`null` or absent: the default or empty value). */
export function createProperties(
  fields: readonly FieldDescription[],
  parts: KindSchemas = {},
  inputs: Record<string, TSchema> = {},
): Record<string, TSchema> {
  const properties: Record<string, TSchema> = {};
  for (const field of writable(fields)) {
    const schema = inputs[field.name] ?? valueSchema(field, parts);
    properties[field.name] = field.required ? schema : Type.Optional(orNull(schema));
  }
  return properties;
}

/**
 * A merge patch (D6): every writable field optional, `null` clearing it where it may be cleared; the
 * read-only fields may be sent back unchanged (a read resource is a valid patch), otherwise a 400.
 */
export function patchProperties(
  fields: readonly FieldDescription[],
  readOnlyFields: Record<string, TSchema>,
  parts: KindSchemas = {},
): Record<string, TSchema> {
  const properties: Record<string, TSchema> = {};
  for (const field of fields) {
    if (field.access === 'writable') {
      const schema = valueSchema(field, parts);
      properties[field.name] = Type.Optional(field.whenNull === 'refused' ? schema : orNull(schema));
    } else {
      const schema = readOnlyFields[field.name];
      if (!schema) continue;
      properties[field.name] = Type.Optional({
        ...schema,
        description: `${withoutFullStop(schema.description ?? describeField(field))}. Read-only: sent back unchanged it is ignored; a different value is a 400 \`read_only\`.`,
      });
    }
  }
  return properties;
}
