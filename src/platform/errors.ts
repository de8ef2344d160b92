import type { ErrorCode } from './error-codes.ts';
import type { FieldPath } from './field-path.ts';

/** Where a failure lies: a field of the input (as data, see field-path.ts) or a query parameter. */
export interface ErrorPlace {
  path?: FieldPath;
  queryParam?: string;
}

export interface ErrorDetail extends ErrorPlace {
  message: string;
}

/**
 * A failure the caller can act on, with a stable `code` from the catalogue (error-codes.ts). The
 * transport decides the status and how the place is written (decisions.md: every client error
 * is 400, authentication 401, permission 403).
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  /** The `path` option. Not named `path`: graphql-js takes an error with an array `path` for one of its own. */
  readonly fieldPath?: FieldPath;
  readonly queryParam?: string;
  readonly details?: ErrorDetail[];

  constructor(code: ErrorCode, message: string, options: ErrorPlace & { details?: ErrorDetail[] } = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.fieldPath = options.path;
    this.queryParam = options.queryParam;
    this.details = options.details;
  }

  /** Every failed check of one input: the first one's message and place, all of them as details when more than one. */
  static of(code: ErrorCode, failures: ErrorDetail[]): DomainError {
    const [first] = failures;
    return new DomainError(code, first.message, { path: first.path, queryParam: first.queryParam, details: failures.length > 1 ? failures : undefined });
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string, options: ErrorPlace = {}) {
    super('not_found', `${what} not found`, options);
  }
}

export class InvalidInputError extends DomainError {
  constructor(message: string, options: ErrorPlace & { details?: ErrorDetail[] } = {}) {
    super('invalid_input', message, options);
  }
}
