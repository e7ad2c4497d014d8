/**
 * A proposal's cancellation terms (D23): `[{ daysBefore, percent }]`, each step the share of the total
 * charged when the event is cancelled fewer than `daysBefore` days before its first day.
 */
import { checkPercent } from './contact-values.js';
import { type Checked, fieldPath, INVALID, type Problems } from './problems.js';
import {
  checkArray,
  checkNonNegativeInteger,
  describeType,
  isPlainObject,
  rejectUnknownKeys,
} from './values.js';

export interface CancellationStep {
  /** Applies when cancelled fewer than this many days before the first day: an integer ≥ 0. */
  daysBefore: number;
  /** Share of the total charged, 0–100. */
  percent: number;
}

export const CANCELLATION_LIMITS = { steps: 20, daysBefore: 3650 } as const;

const STEP_KEYS = ['daysBefore', 'percent'] as const;

/**
 * Checks a ladder and returns it furthest step first. Two steps for the same `daysBefore` are refused,
 * and so is a step nearer the event that charges less than one further away: both would apply to a
 * cancellation after the nearer one, and the terms would contradict each other.
 */
export function checkCancellationLadder(
  value: unknown,
  path: string,
  problems: Problems,
): Checked<CancellationStep[]> {
  const steps = checkArray(value, path, problems, CANCELLATION_LIMITS.steps, (item, itemPath) =>
    checkStep(item, itemPath, problems),
  );
  if (steps === INVALID) return INVALID;
  const indexed = steps.map((step, index) => ({ step, index }));
  indexed.sort((a, b) => b.step.daysBefore - a.step.daysBefore || a.index - b.index);
  let valid = true;
  for (let at = 1; at < indexed.length; at++) {
    const further = indexed[at - 1]!;
    const nearer = indexed[at]!;
    if (nearer.step.daysBefore === further.step.daysBefore) {
      problems.add(
        fieldPath(fieldPath(path, nearer.index), 'daysBefore'),
        'duplicate',
        `another step is already for ${nearer.step.daysBefore} days before`,
      );
      valid = false;
    } else if (nearer.step.percent < further.step.percent) {
      problems.add(
        fieldPath(fieldPath(path, nearer.index), 'percent'),
        'out_of_range',
        `must be at least ${further.step.percent}, the share charged from ${further.step.daysBefore} days before`,
      );
      valid = false;
    }
  }
  return valid ? indexed.map(({ step }) => step) : INVALID;
}

function checkStep(value: unknown, path: string, problems: Problems): Checked<CancellationStep> {
  if (!isPlainObject(value)) {
    problems.add(
      path,
      'invalid_type',
      `must be an object { daysBefore, percent }, not ${describeType(value)}`,
    );
    return INVALID;
  }
  let valid = rejectUnknownKeys(value, STEP_KEYS, path, problems);
  const step: Partial<CancellationStep> = {};
  for (const key of STEP_KEYS) {
    const keyPath = fieldPath(path, key);
    if (value[key] === undefined || value[key] === null) {
      problems.add(keyPath, 'required', 'is required');
      valid = false;
      continue;
    }
    const checked =
      key === 'daysBefore'
        ? checkDaysBefore(value[key], keyPath, problems)
        : checkPercent(value[key], keyPath, problems);
    if (checked === INVALID) valid = false;
    else step[key] = checked;
  }
  return valid ? (step as CancellationStep) : INVALID;
}

function checkDaysBefore(value: unknown, path: string, problems: Problems): Checked<number> {
  const days = checkNonNegativeInteger(value, path, problems);
  if (days === INVALID) return INVALID;
  if (days > CANCELLATION_LIMITS.daysBefore) {
    problems.add(path, 'out_of_range', `must be at most ${CANCELLATION_LIMITS.daysBefore} days`);
    return INVALID;
  }
  return days;
}
