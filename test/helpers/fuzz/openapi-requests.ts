// Hostile requests generated from the OpenAPI document: for every operation, a plausible body
// (from its request schema) with some members replaced by hostile values, hostile path and
// query values, prototype-named query keys, raw bodies that are not JSON or not UTF-8.
import fc from 'fast-check';
import { hostileString, hostileValue, IMPOSSIBLE_DATES, PROTOTYPE_KEYS, writeJson, type RawJson } from './hostile-values.ts';

type Schema = Record<string, any>;

export interface Operation {
  method: string;
  /** OpenAPI path below the server prefix, e.g. `/customer/{id}`. */
  path: string;
  operationId: string;
  parameters: { name: string; in: 'path' | 'query' }[];
  body?: Schema;
}

export interface FuzzRequest {
  operationId: string;
  method: string;
  path: string;
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** What was made hostile, for the failure message. */
  note: string;
}

export function operationsOf(document: Schema): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(document.paths)) {
    for (const [method, op] of Object.entries<Schema>(item)) {
      operations.push({
        method: method.toUpperCase(), path, operationId: op.operationId,
        parameters: (op.parameters ?? []).filter((p: Schema) => p.in === 'path' || p.in === 'query'),
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

/** A value the schema would accept, as far as a generic guess goes. */
function plausible(schema: Schema | undefined, depth = 0): RawJson {
  if (!schema || depth > 4) return null;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'string': return schema.format === 'date-time' ? '2026-03-01T10:00:00Z' : schema.format === 'date' ? '2026-03-01' : 'fuzz';
    case 'integer': return Math.max(1, schema.minimum ?? 1);
    case 'number': return 1;
    case 'boolean': return true;
    case 'array': return [];
    case 'object': {
      const entries: [string, RawJson][] = [];
      for (const [name, member] of Object.entries<Schema>(schema.properties ?? {})) {
        if ((schema.required ?? []).includes(name) || depth === 0) entries.push([name, plausible(member, depth + 1)]);
      }
      return { entries };
    }
    default: return null;
  }
}

type FuzzBody = { raw: string | Buffer; note: string };

/** A batch's body (an array schema) is mostly hostile items in an array, else hostile as a whole. */
const bodyOf = (operation: Operation): fc.Arbitrary<FuzzBody> => {
  const schema = operation.body;
  if (schema?.type !== 'array') return bodyOfSchema(schema);
  const items = bodyOfSchema(schema.items).map(({ raw, note }) => (typeof raw === 'string' ? { raw: `[${raw}]`, note: `an item: ${note}` } : { raw, note }));
  return fc.oneof({ weight: 3, arbitrary: items }, { weight: 1, arbitrary: bodyOfSchema(schema) });
};

const bodyOfSchema = (schema: Schema | undefined): fc.Arbitrary<FuzzBody> => {
  const guess = plausible(schema);
  const base = guess && typeof guess === 'object' && !Array.isArray(guess) ? guess : { entries: [] as [string, RawJson][] };
  const names = base.entries.length ? base.entries.map(([name]) => name) : ['unknown'];
  const mutated = fc.tuple(
    fc.subarray(names, { minLength: 1, maxLength: Math.min(3, names.length) }),
    fc.array(hostileValue, { minLength: 3, maxLength: 3 }),
  ).map(([chosen, values]) => {
    const entries = base.entries.map(([name, value]): [string, RawJson] => [name, value]);
    chosen.forEach((name, i) => {
      const at = entries.findIndex(([n]) => n === name);
      if (at >= 0) entries[at] = [name, values[i]]; else entries.push([name, values[i]]);
    });
    return { raw: writeJson({ entries }), note: `members ${chosen.join(', ')}` };
  });
  const extraKeys = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), hostileString), hostileValue), { minLength: 1, maxLength: 30 })
    .map((extra) => ({ raw: writeJson({ entries: [...base.entries, ...extra] }), note: 'extra members' }));
  const dates = fc.constantFrom(...IMPOSSIBLE_DATES).map((date) => ({
    raw: writeJson({ entries: base.entries.map(([name, value]): [string, RawJson] => [name, /(_at|_from|_until|date_time|_date)$/.test(name) ? date : value]) }),
    note: `dates ${date}`,
  }));
  const wholeBody = fc.oneof(
    hostileValue.map((value) => ({ raw: writeJson(value), note: 'whole body' })),
    fc.constantFrom<FuzzBody>(
      { raw: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), note: 'bad UTF-8' },
      { raw: Buffer.from([0xc3, 0x28]), note: 'bad UTF-8 bare' },
      { raw: '{"a":', note: 'truncated JSON' },
      { raw: `${'['.repeat(5000)}${']'.repeat(5000)}`, note: 'deep array' },
      { raw: `{"name":"${'x'.repeat(1_100_000)}"}`, note: 'body over 1 MB' },
      { raw: '{"a":1,"a":2}', note: 'duplicate key' },
    ),
  );
  return fc.oneof({ weight: 5, arbitrary: mutated }, { weight: 2, arbitrary: extraKeys }, { weight: 2, arbitrary: dates }, { weight: 2, arbitrary: wholeBody });
};

// Values stay short enough for Node's 16 KB header limit (past it Node itself answers 431).

/** Percent-encodes the UTF-8 bytes (lone surrogates become U+FFFD), unlike encodeURIComponent which throws on them. */
const encode = (text: string) => [...Buffer.from(text, 'utf8')]
  .map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

/** Already encoded values that are not UTF-8 or hold NUL once decoded. */
const RAW_ENCODED = ['%FF%FE', 'a%C3%28', '%00', '%E2%82'];

const queryOf = (operation: Operation) => {
  const names = operation.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  return fc.array(fc.tuple(fc.oneof(
    { weight: 3, arbitrary: names.length ? fc.constantFrom(...names) : fc.constant('page_size') },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS, 'created_gt', 'after', 'page_size') },
  ), fc.oneof(
    { weight: 4, arbitrary: hostileString.filter((s) => s.length < 2000).map(encode) },
    { weight: 2, arbitrary: fc.constantFrom(...IMPOSSIBLE_DATES).map(encode) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_ENCODED) },
  )), { maxLength: 3 })
    .map((pairs) => pairs.map(([key, value]) => `${encode(key)}=${value}`).join('&'));
};

/** One hostile request for `operation`; `known` maps path parameter names to real values to mix in. */
export function requestOf(operation: Operation, known: Record<string, string[]>): fc.Arbitrary<FuzzRequest> {
  const pathParams = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const paramValue = (name: string) => {
    const real = known[name] ?? known.id ?? [];
    const hostile = fc.oneof(
      { weight: 4, arbitrary: hostileString.filter((s) => s.length > 0 && s.length < 3000).map(encode) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_ENCODED) },
    );
    return real.length ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...real.map(encode)) }, { weight: 1, arbitrary: hostile }) : hostile;
  };
  const hasBody = operation.method !== 'GET' && operation.method !== 'DELETE';
  return fc.record({
    params: fc.tuple(...pathParams.map(paramValue)),
    query: queryOf(operation),
    body: hasBody ? fc.option(bodyOf(operation), { freq: 8 }) : fc.constant(null),
  }).map(({ params, query, body }) => {
    let path = operation.path;
    pathParams.forEach((name, i) => { path = path.replace(`{${name}}`, params[i] as string); });
    const notes = [`path ${path}`];
    if (query) notes.push(`query ${query}`);
    if (body) notes.push(body.note);
    return {
      operationId: operation.operationId,
      method: operation.method,
      path: `/main/v1${path}${query ? `?${query}` : ''}`,
      raw: body?.raw,
      headers: body ? { 'content-type': 'application/json' } : undefined,
      note: notes.join('; '),
    };
  });
}
