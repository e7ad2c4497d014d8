/**
 * Checks responses against the OpenAPI document: status documented for the operation, every required
 * header present and each documented header well-formed, media type listed, body valid for its schema
 * (Ajv, JSON Schema 2020-12, with formats). startTestApp() runs it on every response of `app.inject`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

export type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components?: { headers?: Record<string, HeaderObject> };
};
interface Operation {
  responses: Record<string, ResponseObject>;
}
interface ResponseObject {
  headers?: Record<string, HeaderObject | { $ref: string }>;
  content?: Record<string, { schema: unknown }>;
}
interface HeaderObject {
  required?: boolean;
  schema: Record<string, unknown>;
}

/** What is checked of a response: inject's responses and fetch results (see fromFetch) both fit. */
export interface CheckedResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

const COMMITTED_DOCUMENT = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'openapi',
  'openapi.json',
);
const DOCUMENT_ID = 'https://eventplan.invalid/openapi.json';

let committed: OpenApiDocument | undefined;
/** openapi/openapi.json, as committed (a test checks it matches what the app serves). */
export function committedDocument(): OpenApiDocument {
  committed ??= JSON.parse(readFileSync(COMMITTED_DOCUMENT, 'utf8')) as OpenApiDocument;
  return committed;
}

class DocumentValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ template: string; pattern: RegExp }>;

  constructor(readonly document: OpenApiDocument) {
    ajvFormats.default(this.ajv);
    // The whole document is one schema resource, so `#/components/schemas/…` references resolve in it.
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    this.templates = Object.keys(document.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** The path template of the document that a concrete path matches (`/v1/events/{id}`). */
  templateOf(path: string): string | undefined {
    return this.templates.find((entry) => entry.pattern.test(path))?.template;
  }

  private validator(pointer: string[]): ValidateFunction {
    const ref = `${DOCUMENT_ID}#/${pointer.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    return validate;
  }

  /** Validates a value against the schema at a JSON pointer of the document; returns its problems. */
  validate(pointer: string[], value: unknown): string[] {
    const validate = this.validator(pointer);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
  }

  check(response: CheckedResponse, method: string, template: string): string[] {
    const operation = this.document.paths[template]?.[method.toLowerCase()];
    if (!operation) return [`${method} ${template} is not an operation of the document`];
    const status = String(response.statusCode);
    const statusKey = [status, `${status[0]}XX`, 'default'].find((key) => operation.responses[key]);
    if (!statusKey) return [`status ${status} is not documented for ${method} ${template}`];
    const documented = operation.responses[statusKey]!;
    const base = ['paths', template, method.toLowerCase(), 'responses', statusKey];
    return [...this.checkHeaders(response, documented, base), ...this.checkBody(response, documented, base)];
  }

  private checkHeaders(response: CheckedResponse, documented: ResponseObject, base: string[]): string[] {
    const problems: string[] = [];
    for (const [name, declared] of Object.entries(documented.headers ?? {})) {
      const [header, pointer] = this.resolveHeader(declared, [...base, 'headers', name]);
      const raw = response.headers[name.toLowerCase()];
      if (raw === undefined) {
        if (header.required) problems.push(`header ${name} is required but missing`);
        continue;
      }
      const value = Array.isArray(raw) ? raw.join(', ') : String(raw);
      const typed = header.schema.type === 'integer' && /^-?[0-9]+$/.test(value) ? Number(value) : value;
      const validate = this.validator([...pointer, 'schema']);
      if (!validate(typed)) {
        problems.push(`header ${name}: "${value}" ${this.ajv.errorsText(validate.errors)}`);
      }
    }
    return problems;
  }

  private resolveHeader(
    declared: HeaderObject | { $ref: string },
    pointer: string[],
  ): [HeaderObject, string[]] {
    if ('$ref' in declared) {
      const name = declared.$ref.replace('#/components/headers/', '');
      const header = this.document.components?.headers?.[name];
      if (!header) throw new Error(`unresolved header reference ${declared.$ref}`);
      return [header, ['components', 'headers', name]];
    }
    return [declared, pointer];
  }

  private checkBody(response: CheckedResponse, documented: ResponseObject, base: string[]): string[] {
    if (!documented.content) {
      return response.body === '' ? [] : [`a body was sent where none is documented: ${clip(response.body)}`];
    }
    const contentType = String(response.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (!documented.content[contentType]) {
      return [
        `content-type "${contentType}" is not documented (expected ${Object.keys(documented.content).join(' or ')})`,
      ];
    }
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      return [`the body is not JSON: ${clip(response.body)}`];
    }
    const validate = this.validator([...base, 'content', contentType, 'schema']);
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) => `body${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`,
    );
  }
}

const validators = new WeakMap<OpenApiDocument, DocumentValidator>();
function validatorFor(document: OpenApiDocument): DocumentValidator {
  let validator = validators.get(document);
  if (!validator) {
    validator = new DocumentValidator(document);
    validators.set(document, validator);
  }
  return validator;
}

/** The problems of a response against the document (empty when it matches). `path` may be concrete. */
export function openApiMismatches(
  response: CheckedResponse,
  method: string,
  path: string,
  document: OpenApiDocument = committedDocument(),
): string[] {
  const validator = validatorFor(document);
  const template = validator.templateOf(path.split('?')[0]!) ?? path;
  return validator.check(response, method, template);
}

/** Fails unless the response matches what the document says of `method path` (a template or a URL path). */
export function expectMatchesOpenApi(
  response: CheckedResponse,
  method: string,
  path: string,
  document: OpenApiDocument = committedDocument(),
): void {
  const problems = openApiMismatches(response, method, path, document);
  if (problems.length > 0) {
    throw new Error(
      `${method.toUpperCase()} ${path} -> ${response.statusCode} does not match the OpenAPI document:\n  - ${problems.join('\n  - ')}\nbody: ${clip(response.body)}`,
    );
  }
}

/** Whether the document describes `method path`; other requests (/healthz, unknown routes) are not checked. */
export function isDocumented(method: string, path: string, document: OpenApiDocument): boolean {
  const validator = validatorFor(document);
  const template = validator.templateOf(path.split('?')[0]!);
  return template !== undefined && document.paths[template]?.[method.toLowerCase()] !== undefined;
}

/** A fetch Response, read, in the shape the checks take. */
export async function fromFetch(response: Response): Promise<CheckedResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    statusCode: response.status,
    headers,
    body: await response.text(),
  };
}

function clip(text: string): string {
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

/**
 * Makes every `app.inject` response of a documented operation fail the test unless it matches the
 * document the app itself serves.
 */
export function checkEveryResponse(app: FastifyInstance): void {
  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const original = app.inject.bind(app) as (...args: unknown[]) => unknown;
  const checked = async (options: InjectOptions | string) => {
    const response = await inject(options);
    const method = typeof options === 'string' ? 'GET' : (options.method ?? 'GET');
    const path = pathOf(typeof options === 'string' ? options : (options.url ?? options.path));
    const document = app.swagger() as unknown as OpenApiDocument;
    if (isDocumented(method, path, document)) expectMatchesOpenApi(response, method, path, document);
    return response;
  };
  app.inject = ((options?: InjectOptions | string, callback?: unknown) =>
    options === undefined || callback !== undefined
      ? original(options, callback)
      : checked(options)) as typeof app.inject;
}

function pathOf(url: InjectOptions['url']): string {
  if (url === undefined) return '/';
  if (typeof url === 'string') return url.split('?')[0]!;
  return url.pathname;
}

/** A validator of one schema of components.schemas, e.g. `CreateEventRequest`. */
export function componentValidator(name: string, document: OpenApiDocument = committedDocument()) {
  const validator = validatorFor(document);
  return (value: unknown) => validator.validate(['components', 'schemas', name], value);
}

/**
 * The document as request validators read it: a property marked `readOnly` is not part of a request,
 * so it is left out of its object, and a body that sends it has an unknown property (Prism's validating
 * proxy does exactly this). Validate request bodies against this view to see what such tools accept.
 */
export function requestView(document: OpenApiDocument = committedDocument()): OpenApiDocument {
  const copy = structuredClone(document) as OpenApiDocument & {
    components: { schemas: Record<string, Json> };
  };
  const schemas = copy.components.schemas;
  const isReadOnly = (schema: Json): boolean =>
    schema?.readOnly === true ||
    (typeof schema?.$ref === 'string' && isReadOnly(schemas[schema.$ref.split('/').pop()]));
  const strip = (schema: Json): void => {
    if (schema === null || typeof schema !== 'object') return;
    if (schema.properties && typeof schema.properties === 'object') {
      for (const [name, property] of Object.entries(schema.properties)) {
        if (isReadOnly(property)) {
          delete schema.properties[name];
          if (Array.isArray(schema.required))
            schema.required = schema.required.filter((key: string) => key !== name);
        }
      }
    }
    for (const value of Object.values(schema)) strip(value);
  };
  strip(copy);
  return copy;
}
// biome-ignore lint/suspicious/noExplicitAny: a walk over any JSON Schema
type Json = any;
