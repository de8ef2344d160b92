// The most idle (parking) time a session can have: its duration in whole seconds, rounded up (idle
// time is reported in whole seconds; OCPI: hours, rounded to seconds). Submission refuses more
// (src/sessions/session-consistency.ts); the cost calculation holds its parking_minutes to it
// (src/msp/cost-calculation.service.ts).
export function maxIdleSeconds(startAt: Date, endAt: Date): number {
  return Math.max(0, Math.ceil((endAt.getTime() - startAt.getTime()) / 1000));
}
