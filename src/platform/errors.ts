export interface ErrorDetail {
  param?: string;
  query_param?: string;
  message: string;
}

/**
 * A failure the caller can act on, with a stable `code`. The transport decides the status
 * (decisions.md: every client error is 400, authentication 401, permission 403).
 */
export class DomainError extends Error {
  readonly code: string;
  readonly param?: string;
  readonly queryParam?: string;
  readonly details?: ErrorDetail[];

  constructor(code: string, message: string, options: { param?: string; queryParam?: string; details?: ErrorDetail[] } = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.param = options.param;
    this.queryParam = options.queryParam;
    this.details = options.details;
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string, options: { param?: string; queryParam?: string } = {}) {
    super('not_found', `${what} not found`, options);
  }
}

export class InvalidInputError extends DomainError {
  constructor(message: string, options: { param?: string; queryParam?: string; details?: ErrorDetail[] } = {}) {
    super('invalid_input', message, options);
  }
}

export class ConflictError extends DomainError {
  constructor(code: string, message: string, param?: string) {
    super(code, message, { param });
  }
}

/** JSONPath of a field inside the request body: `$.a.b[0].c`. */
export function jsonPath(...parts: (string | number)[]): string {
  let path = '$';
  for (const part of parts) path += typeof part === 'number' ? `[${part}]` : `.${part}`;
  return path;
}
