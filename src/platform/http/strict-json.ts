// An I-JSON (RFC 7493) parser: JSON.parse accepts duplicate keys and numbers it cannot
// represent, and offers no depth limit. Errors carry the place where parsing stopped.
import { DomainError } from '../errors.ts';
import { step, trailPath, type Trail } from '../field-path.ts';

export const MAX_DEPTH = 32;

class Parser {
  private pos = 0;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  parse(): unknown {
    this.ws();
    const value = this.value(null, 0);
    this.ws();
    if (this.pos !== this.text.length) this.fail(null, 'unexpected data after the JSON value');
    return value;
  }

  private fail(path: Trail | null, message: string): never {
    throw new DomainError('invalid_json', `${message} (at character ${this.pos})`, { path: trailPath(path) });
  }

  private ws(): void {
    while (this.pos < this.text.length) {
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.pos++;
      else break;
    }
  }

  private value(path: Trail | null, depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail(path, `nesting deeper than ${MAX_DEPTH} levels`);
    const c = this.text[this.pos];
    if (c === '{') return this.object(path, depth);
    if (c === '[') return this.array(path, depth);
    if (c === '"') return this.string(path);
    if (c === '-' || (c >= '0' && c <= '9')) return this.number(path);
    if (this.text.startsWith('true', this.pos)) { this.pos += 4; return true; }
    if (this.text.startsWith('false', this.pos)) { this.pos += 5; return false; }
    if (this.text.startsWith('null', this.pos)) { this.pos += 4; return null; }
    return this.fail(path, c === undefined ? 'unexpected end of JSON' : 'invalid JSON value');
  }

  private object(path: Trail | null, depth: number): Record<string, unknown> {
    this.pos++;
    // Members are own data properties: assigned, but `__proto__` (which assignment would take as
    // the prototype) defined.
    const result: Record<string, unknown> = {};
    this.ws();
    if (this.text[this.pos] === '}') { this.pos++; return result; }
    for (;;) {
      this.ws();
      if (this.text[this.pos] !== '"') this.fail(path, 'expected a member name');
      const key = this.string(path);
      const at = step(path, key);
      if (Object.hasOwn(result, key)) this.fail(at, `duplicate member "${key}"`);
      this.ws();
      if (this.text[this.pos] !== ':') this.fail(at, 'expected ":"');
      this.pos++;
      this.ws();
      const value = this.value(at, depth + 1);
      if (key === '__proto__') Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      else result[key] = value;
      this.ws();
      const next = this.text[this.pos];
      if (next === ',') { this.pos++; continue; }
      if (next === '}') { this.pos++; break; }
      this.fail(path, 'expected "," or "}"');
    }
    return result;
  }

  private array(path: Trail | null, depth: number): unknown[] {
    this.pos++;
    const result: unknown[] = [];
    this.ws();
    if (this.text[this.pos] === ']') { this.pos++; return result; }
    for (;;) {
      this.ws();
      result.push(this.value(step(path, result.length), depth + 1));
      this.ws();
      const next = this.text[this.pos];
      if (next === ',') { this.pos++; continue; }
      if (next === ']') { this.pos++; break; }
      this.fail(path, 'expected "," or "]"');
    }
    return result;
  }

  private string(path: Trail | null): string {
    const start = this.pos;
    this.pos++;
    let out = '';
    let chunkStart = this.pos;
    for (;;) {
      if (this.pos >= this.text.length) this.fail(path, 'unterminated string');
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x22) {
        out += this.text.slice(chunkStart, this.pos);
        this.pos++;
        break;
      }
      if (c < 0x20) this.fail(path, 'control character in string');
      if (c === 0x5c) {
        out += this.text.slice(chunkStart, this.pos);
        const e = this.text[this.pos + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && e in simple) {
          out += simple[e];
          this.pos += 2;
        } else if (e === 'u') {
          const hex = this.text.slice(this.pos + 2, this.pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail(path, 'invalid \\u escape');
          // PostgreSQL text and jsonb cannot hold U+0000.
          if (/^0{4}$/.test(hex)) this.fail(path, 'the NUL character \\u0000 is not accepted');
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 6;
        } else {
          this.fail(path, 'invalid escape');
        }
        chunkStart = this.pos;
        continue;
      }
      this.pos++;
    }
    if (!out.isWellFormed()) {
      this.pos = start;
      this.fail(path, 'string holds an unpaired surrogate');
    }
    return out;
  }

  private number(path: Trail | null): number {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.pos, this.pos + 400));
    if (!match) return this.fail(path, 'invalid number');
    this.pos += match[0].length;
    const value = Number(match[0]);
    if (!Number.isFinite(value)) this.fail(path, 'number out of range');
    if (!match[2] && !match[3] && !Number.isSafeInteger(value)) {
      this.fail(path, 'integer beyond double precision: send it as a string');
    }
    if (!representable(match[0], Boolean(match[3]), value)) this.fail(path, 'number beyond double precision: send it as a string');
    return value;
  }
}

/**
 * Whether the double `value` read from `literal` holds it exactly (as its shortest form). A literal
 * of at most 15 characters without an exponent does: at most 15 significant digits between 1e-14
 * and 1e15, which a double always keeps (DBL_DIG); only the others are compared digit by digit.
 */
function representable(literal: string, hasExponent: boolean, value: number): boolean {
  if (!hasExponent && literal.length <= 15) return true;
  return significand(literal) === significand(value.toExponential());
}

/** Significant digits and exponent of a number literal ("1.50e2" → "15e1"), to see whether a double holds it exactly. */
function significand(literal: string): string {
  const [, int, frac = '', exp = '0'] = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal)!;
  const digits = (int + frac).replace(/^0+/, '');
  const trimmed = digits.replace(/0+$/, '');
  if (!trimmed) return '0';
  return `${trimmed}e${Number(exp) - frac.length + (digits.length - trimmed.length)}`;
}

export function parseStrictJson(text: string): unknown {
  return new Parser(text).parse();
}
