// Which calculation inputs apply at a moment: per component (and custom variable), the input in
// force then (src/contracts/versions.ts); the arrangement's input wins over the plan's for the same
// component, whatever their dates (spec, "Reimbursement").
import { versionsAtByKey } from '../contracts/versions.ts';

export interface InputValue {
  validFrom: Date;
  componentType: string;
  varName: string;
  value: string;
}

const keyOf = (input: InputValue) => (input.componentType === 'custom' ? `custom:${input.varName}` : input.componentType);

const latestAt = (inputs: InputValue[], at: Date) => versionsAtByKey(inputs, keyOf, at);

/** The inputs that price a session at `at`, keyed by component (`custom:<var>` for custom variables). */
export function effectiveInputs(planInputs: InputValue[], arrangementInputs: InputValue[], at: Date): Map<string, InputValue> {
  const effective = latestAt(planInputs, at);
  for (const [key, input] of latestAt(arrangementInputs, at)) effective.set(key, input);
  return effective;
}
