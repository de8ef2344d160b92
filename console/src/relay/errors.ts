// GraphQL errors as the service sends them: a message, and extensions with the error code and
// the place (`param`, a JSON path such as `$.input.name`) of the argument it concerns.
export interface ApiErrorItem {
  message: string;
  code?: string;
  param?: string;
  details?: { message: string; param?: string }[];
}

export class ApiError extends Error {
  readonly errors: ApiErrorItem[];
  readonly status: number;

  constructor(errors: ApiErrorItem[], status: number) {
    super(errors.map((e) => e.message).join('; ') || `HTTP ${status}`);
    this.name = 'ApiError';
    this.errors = errors;
    this.status = status;
  }
}

interface RawError {
  message?: string;
  extensions?: { code?: string; param?: string; details?: { message: string; param?: string }[] };
}

export function apiErrorFrom(raw: unknown, status: number): ApiError {
  const list = Array.isArray(raw) ? (raw as RawError[]) : [];
  return new ApiError(list.map((e) => ({
    message: e.message ?? 'error',
    code: e.extensions?.code,
    param: e.extensions?.param,
    details: e.extensions?.details,
  })), status);
}

/** The errors of anything thrown: an ApiError's items, or one item with the message. */
export function errorItems(error: unknown): ApiErrorItem[] {
  if (error instanceof ApiError && error.errors.length) return error.errors;
  // Relay wraps network errors of mutations; the original is its cause or source.
  const cause = (error as { cause?: unknown; source?: unknown } | null)?.cause;
  if (cause instanceof ApiError) return cause.errors;
  const listed = (error as { errors?: unknown } | null)?.errors;
  if (Array.isArray(listed) && listed.length) return listed as ApiErrorItem[];
  return [{ message: error instanceof Error ? error.message : String(error) }];
}
