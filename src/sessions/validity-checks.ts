// The validity checks of a received session, before pricing. Thresholds come from the
// environment (documented in README and docs/decisions.md); a reprocessing instruction may
// bypass a named check for the sessions of one drop-out case.
import { compareDecimal, mulDivDecimal } from '../money/decimal.ts';

export const VALIDITY_CHECKS = ['start_before_end', 'plausible_energy', 'end_in_past', 'not_too_old'] as const;
export type ValidityCheck = (typeof VALIDITY_CHECKS)[number];

/** The drop-out reason of a failed check. */
export type ValidityReason = `validity_${ValidityCheck}`;
export const VALIDITY_REASONS: readonly ValidityReason[] = VALIDITY_CHECKS.map((check) => `validity_${check}` as const);

export interface ValidityThresholds {
  maxEnergyKwh: string;
  maxAveragePowerKw: string;
  clockSkewSeconds: number;
  maxAgeDays: number;
}

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : fallback;
}

export function thresholdsFromEnv(): ValidityThresholds {
  return {
    maxEnergyKwh: process.env.SVC_SESSION_MAX_KWH ?? '1000',
    maxAveragePowerKw: process.env.SVC_SESSION_MAX_AVG_KW ?? '400',
    clockSkewSeconds: envNumber('SVC_SESSION_CLOCK_SKEW_SECONDS', 300),
    maxAgeDays: envNumber('SVC_SESSION_MAX_AGE_DAYS', 400),
  };
}

export interface CheckedSession { startAt: Date; endAt: Date; energyKwh: string; receivedAt: Date }

export interface CheckFailure { check: ValidityCheck; message: string }

/** The first failing check that is not bypassed, or null. */
export function failedCheck(session: CheckedSession, limits: ValidityThresholds, bypass: readonly string[]): CheckFailure | null {
  const checks: [ValidityCheck, () => string | null][] = [
    ['start_before_end', () => (session.startAt < session.endAt ? null : 'the session does not start before it ends')],
    ['plausible_energy', () => {
      if (compareDecimal(session.energyKwh, limits.maxEnergyKwh) > 0) return `${session.energyKwh} kWh is more than the ${limits.maxEnergyKwh} kWh a session may hold`;
      // kWh × 3,600,000 ms/h over the milliseconds: hours rounded to 6 decimals are 0 below 1.8 s, and the average was infinite.
      const milliseconds = String(Math.max(session.endAt.getTime() - session.startAt.getTime(), 1));
      const average = mulDivDecimal(session.energyKwh, '3600000', milliseconds);
      return compareDecimal(average, limits.maxAveragePowerKw) > 0 ? `an average of ${average} kW is more than ${limits.maxAveragePowerKw} kW` : null;
    }],
    ['end_in_past', () => (session.endAt.getTime() <= session.receivedAt.getTime() + limits.clockSkewSeconds * 1000 ? null : 'the session ends in the future')],
    ['not_too_old', () => (session.startAt.getTime() >= session.receivedAt.getTime() - limits.maxAgeDays * 86_400_000 ? null : `the session started more than ${limits.maxAgeDays} days before it was received`)],
  ];
  for (const [check, run] of checks) {
    if (bypass.includes(check)) continue;
    const message = run();
    if (message) return { check, message };
  }
  return null;
}
