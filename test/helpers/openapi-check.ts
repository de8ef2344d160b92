// Every /main/v1 answer the test suite receives is checked against the served OpenAPI document
// (test/helpers/app.ts request): the status must be one the operation lists and a JSON body must
// match that response's schema. A mismatch throws, so the document cannot drift from what is served.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ERROR_RESPONSES } from '../../rest/rails/openapi.ts';
import { cachedValidator } from './validator-cache.ts';

const require = createRequire(import.meta.url);

type Doc = { servers: { url: string }[]; paths: Record<string, Record<string, any>>; components: Record<string, any> };

interface Template { path: string; pattern: RegExp; params: number; item: Record<string, any> }

/** Output timestamps: UTC with Z and milliseconds (../shared/spec/decisions.md), a real instant. */
const OUTPUT_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const isOutputTimestamp = (value: string) => OUTPUT_TIMESTAMP.test(value) && new Date(value).toISOString() === value;
/** The document's formats, as ajv's standalone code of a validator requires them (`require("formats")`). */
const FORMATS = { 'date-time': { type: 'string' as const, validate: isOutputTimestamp } };

const pointer = (...parts: string[]) => parts.map((part) => `/${part.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).slice(0, 8).map((error) => {
    const extra = error.params.additionalProperty ?? error.params.missingProperty ?? error.params.allowedValues;
    return `${error.instancePath || '/'} ${error.message}${extra === undefined ? '' : ` (${JSON.stringify(extra)})`}`;
  }).join('; ');
}

export class OpenApiCheck {
  // Made when a validator is not in the run's cache (validator-cache.ts): a process that finds them all
  // there does not load ajv.
  private ajvMade: Ajv2020 | null = null;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Template[];
  private readonly prefix: string;
  private readonly doc: Doc;
  private readonly docHash: string;
  /** How many JSON bodies passed the check. */
  checked = 0;

  /** `text`: the document as JSON, when the caller has it already. */
  constructor(doc: Doc, text = JSON.stringify(doc)) {
    this.doc = doc;
    this.docHash = createHash('sha256').update(text).digest('hex').slice(0, 32);
    this.prefix = doc.servers[0].url;
    this.templates = Object.entries(doc.paths).map(([path, item]) => ({
      path, item,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
      params: (path.match(/\{\w+\}/g) ?? []).length,
    }));
  }

  /** The document's operation for a request, as the router picks it: a fixed path outranks a path with parameters. */
  operationFor(method: string, path: string): { path: string; operation: any } | null {
    let candidates = this.templates.filter((template) => template.pattern.test(path));
    if (candidates.some((template) => template.params === 0)) candidates = candidates.filter((template) => template.params === 0);
    const found = candidates.sort((a, b) => a.params - b.params).find((template) => template.item[method]);
    return found ? { path: found.path, operation: found.item[method] } : null;
  }

  /** Throws when the answer is not what the document says; `url` is the request path with its query. */
  check(method: string, url: string, status: number, body: unknown, contentType: string | null): void {
    const path = url.split('?')[0];
    if (!path.startsWith(`${this.prefix}/`) || path === `${this.prefix}/openapi.json`) return;
    // Only the app's JSON answers: not e.g. Node's own 431 for oversized headers, which has no body.
    if (!contentType?.startsWith('application/json')) return;
    const local = path.slice(this.prefix.length);
    const verb = method.toLowerCase();
    const found = this.operationFor(verb, local);
    const where = `${method} ${path} answered ${status}`;
    let responsePointer: string;
    if (found) {
      const response = found.operation.responses[String(status)];
      if (!response) {
        throw new Error(`OpenAPI: ${where}, a status ${found.operation.operationId} does not list (${Object.keys(found.operation.responses).join(', ')})`);
      }
      responsePointer = response.$ref ? String(response.$ref).slice(1) : pointer('paths', found.path, verb, 'responses', String(status));
    } else {
      const name = ERROR_RESPONSES[String(status)];
      if (status === 404 || status === 405) {
        // Paths and methods outside the document: the Error body (the document's info says so).
        const validate = this.schemaValidator('Error');
        if (!validate(body)) throw new Error(`OpenAPI: ${where}, which is not an Error: ${describe(validate.errors)}\nbody: ${JSON.stringify(body).slice(0, 1000)}`);
        this.checked += 1;
        return;
      }
      if (!name) throw new Error(`OpenAPI: ${where}, but the document has no ${verb} ${local}`);
      responsePointer = pointer('components', 'responses', name);
    }
    const validate = this.validator(responsePointer);
    if (!validate(body)) {
      const label = found ? `${found.operation.operationId} ${status}` : responsePointer;
      throw new Error(`OpenAPI: ${where}, which does not match ${label}: ${describe(validate.errors)}\nbody: ${JSON.stringify(body).slice(0, 1000)}`);
    }
    this.checked += 1;
  }

  private schemaValidator(name: string): ValidateFunction {
    return this.validatorOf(`openapi.json#${pointer('components', 'schemas', name)}`);
  }

  private validator(responsePointer: string): ValidateFunction {
    return this.validatorOf(`openapi.json#${responsePointer}${pointer('content', 'application/json', 'schema')}`);
  }

  private validatorOf(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = cachedValidator(this.docHash, ref, FORMATS, () => {
        const compiled = this.ajv().compile({ $ref: ref });
        return { validate: compiled, source: compiled.source ? this.standaloneCode(compiled) : null };
      });
      this.validators.set(ref, validate);
    }
    return validate;
  }

  private ajv(): Ajv2020 {
    if (this.ajvMade) return this.ajvMade;
    const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const { _ } = require('ajv') as typeof import('ajv');
    // No meta-schema check of the document (two thirds of this checker's start, in every test file's
    // process): its schemas sit under members the meta-schema does not descend into, so it checked
    // nothing of them. Strict compilation checks each schema used; `redocly lint` the document's shape
    // (test/rest/rails/openapi-lint.test.ts).
    const ajv = new Ajv({
      strict: true, allowUnionTypes: true, allErrors: true, validateSchema: false,
      // Each validator's code, for the run's cache; its formats are FORMATS.
      code: { source: true, formats: _`require("formats")` },
    });
    ajv.addFormat('date-time', FORMATS['date-time']);
    // The document's own members are annotations to ajv: only the schemas inside it are compiled.
    ajv.addVocabulary(Object.keys(this.doc));
    ajv.addSchema(this.doc as object, 'openapi.json');
    this.ajvMade = ajv;
    return ajv;
  }

  private standaloneCode(validate: ValidateFunction): string {
    const standalone = require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js');
    return standalone.default(this.ajvMade!, validate);
  }
}

let shared: { text: string; check: OpenApiCheck } | null = null;

/** One checker per document (the apps of one test process serve the same one): validators compile once. */
export function openApiCheck(doc: Doc): OpenApiCheck {
  const text = JSON.stringify(doc);
  if (shared?.text !== text) shared = { text, check: new OpenApiCheck(doc, text) };
  return shared.check;
}
