/**
 * fast-check arbitraries drawn from the JSON Schemas of the published OpenAPI document, so the fuzzer
 * follows the route schemas as they change. With `wrong > 0`, any node may be swapped for a value that
 * breaks its schema (wrong type, over a limit, an unknown key, a hazardous string).
 */
import fc from 'fast-check';

type Schema = Record<string, unknown>;
export interface SchemaDocument {
  components?: { schemas?: Record<string, Schema> };
}

export interface ArbitraryOptions {
  document: SchemaDocument;
  /** Probability that a node is replaced by a value breaking its schema. */
  wrong: number;
}

/** Strings that have broken parsers, databases or renderers elsewhere; each within 1,000 characters. */
export const AWKWARD_STRINGS = [
  '',
  ' ',
  '\t\n',
  'Zürich',
  '東京',
  '🚀🎉',
  'e\u0301',
  'a\u0007b',
  '\u202eevil',
  '<script>alert(1)</script>',
  "'; DROP TABLE events; --",
  '%00',
  '\u0024{jndi:x}',
  '__proto__',
  'constructor',
  'null',
  '0',
  'x'.repeat(1000),
  '🚀'.repeat(1000),
];

/** Values that break almost any schema: wrong types, limits, dates, and prototype keys. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    0,
    -1,
    1.5,
    0.001,
    1e21,
    '',
    '   ',
    'x'.repeat(1001),
    '2026-02-30',
    '2026-13-01',
    '25:61',
    'not-a-uuid',
    [],
    {},
    [null],
    { unknownField: 1 },
    JSON.parse('{"__proto__":{"polluted":true}}'),
    JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
    Array.from({ length: 60 }, () => 'v'),
    '\u0000',
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

const DAY_MS = 86_400_000;
const BASE_DAY = Date.UTC(2026, 0, 1) / DAY_MS;
export const dayText = (offset: number) => new Date((BASE_DAY + offset) * DAY_MS).toISOString().slice(0, 10);
const day = fc.integer({ min: 0, max: 730 }).map(dayText);
const dateTime = fc
  .tuple(
    day,
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.constantFrom('Z', '+02:00', '-05:30'),
  )
  .map(
    ([date, hour, minute, zone]) =>
      `${date}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00${zone}`,
  );

function resolve(schema: Schema, document: SchemaDocument): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = document.components?.schemas?.[name];
  if (!target) throw new Error(`unknown schema ${ref}`);
  return resolve(target, document);
}

export function arbitraryOf(schema: Schema, options: ArbitraryOptions, depth = 0): fc.Arbitrary<unknown> {
  const valid = validArbitrary(resolve(schema, options.document), options, depth);
  if (options.wrong <= 0) return valid;
  const wrongWeight = Math.max(1, Math.round(options.wrong * 1000));
  return fc.oneof(
    { arbitrary: valid, weight: 1000 - wrongWeight },
    { arbitrary: wrongValue, weight: wrongWeight },
  );
}

function validArbitrary(schema: Schema, options: ArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  const next = (child: Schema) => arbitraryOf(child, options, depth + 1);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => next(alternative)));
  if (Array.isArray(schema.type)) {
    return fc.oneof(
      ...(schema.type as string[]).map((type) => validArbitrary({ ...schema, type }, options, depth)),
    );
  }
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArbitrary(schema);
    case 'number': {
      const min = (schema.minimum as number | undefined) ?? -1e6;
      return fc.oneof(
        fc
          .integer({ min: Math.ceil(min * 100), max: Math.ceil(min * 100) + 10_000_000 })
          .map((cents) => cents / 100),
        fc.constant(min),
      );
    }
    case 'string':
      return stringArbitrary(schema);
    case 'array':
      return arrayArbitrary(schema, options, depth);
    case 'object':
      return objectArbitrary(schema, options, depth);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function integerArbitrary(schema: Schema): fc.Arbitrary<number> {
  const min = (schema.minimum as number | undefined) ?? -1000;
  const max = (schema.maximum as number | undefined) ?? Number.MAX_SAFE_INTEGER;
  return fc.oneof(
    { arbitrary: fc.integer({ min, max: Math.min(max, min + 500) }), weight: 8 },
    { arbitrary: fc.constantFrom(min, max), weight: 1 },
  );
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = (schema.maxLength as number | undefined) ?? 200;
  switch (schema.format) {
    case 'date':
      return day;
    case 'date-time':
      return dateTime;
    case 'uuid':
      return fc.uuid();
  }
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : undefined;
  if (pattern && schema.pattern!.toString().startsWith('^') && schema.pattern!.toString().endsWith('$')) {
    return fc.stringMatching(pattern).filter((text) => text.length >= minLength && text.length <= maxLength);
  }
  const fits = (text: string) =>
    [...text].length >= minLength && [...text].length <= maxLength && (!pattern || pattern.test(text));
  return fc
    .oneof(
      { arbitrary: fc.string({ minLength, maxLength: Math.min(maxLength, 24) }), weight: 6 },
      { arbitrary: fc.constantFrom(...AWKWARD_STRINGS), weight: 2 },
      { arbitrary: fc.constant('w'.repeat(maxLength)), weight: 1 },
    )
    .map((text) => (fits(text) ? text : 'Planning'.slice(0, Math.max(minLength, Math.min(maxLength, 8)))));
}

function arrayArbitrary(schema: Schema, options: ArbitraryOptions, depth: number): fc.Arbitrary<unknown[]> {
  const items = arbitraryOf((schema.items as Schema) ?? {}, options, depth + 1);
  const minLength = (schema.minItems as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxItems as number | undefined) ?? 5, minLength + 4);
  if (schema.uniqueItems)
    return fc.uniqueArray(items, { minLength, maxLength, selector: (item) => JSON.stringify(item) });
  return fc.array(items, { minLength, maxLength });
}

function objectArbitrary(schema: Schema, options: ArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const writable = Object.entries(properties).filter(
    ([, property]) => !resolve(property, options.document).readOnly,
  );
  let base: fc.Arbitrary<Record<string, unknown>>;
  if (writable.length > 0) {
    base = fc.record(
      Object.fromEntries(
        writable.map(([name, property]) => [name, arbitraryOf(property, options, depth + 1)]),
      ),
      { requiredKeys: writable.map(([name]) => name).filter((name) => required.has(name)) },
    ) as fc.Arbitrary<Record<string, unknown>>;
  } else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    const keys =
      (schema.propertyNames as Schema | undefined)?.format === 'date' ? day : fc.string({ maxLength: 10 });
    base = fc.dictionary(keys, arbitraryOf(schema.additionalProperties as Schema, options, depth + 1), {
      maxKeys: 4,
    });
  } else {
    base = fc.constant({});
  }
  if (options.wrong <= 0) return base;
  // Now and then an unknown key, which every object of the API refuses by name.
  return fc
    .tuple(
      base,
      fc.oneof(
        { arbitrary: fc.constant(null), weight: 30 },
        {
          arbitrary: fc.constantFrom('unknownField', 'Kingsize', '__proto__', 'constructor', 'id'),
          weight: 1,
        },
      ),
    )
    .map(([value, extra]) => (extra === null ? value : { ...value, ...JSON.parse(`{"${extra}":1}`) }));
}
