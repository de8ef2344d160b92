// OCPI status codes (part "Status codes") and the error that carries one to the OCPI transport.
export const OCPI_STATUS = {
  success: 1000,
  clientError: 2000,
  invalidParameters: 2001,
  notEnoughInformation: 2002,
  unknownLocation: 2003,
  unknownToken: 2004,
  serverError: 3000,
  unableToUseClientApi: 3001,
  unsupportedVersion: 3002,
  noMatchingEndpoints: 3003,
  unknownReceiver: 3004,
  hubError: 4000,
} as const;

export class OcpiError extends Error {
  readonly statusCode: number;
  readonly httpStatus: number;
  constructor(statusCode: number, message: string, httpStatus = statusCode >= 3000 ? 500 : 400) {
    super(message);
    this.name = 'OcpiError';
    this.statusCode = statusCode;
    this.httpStatus = httpStatus;
  }
}

/** The answer to a token that names no peer allowed to call there (also one a concurrent registration spent). */
export const NO_VALID_TOKEN = 'no valid token';
