// Which calculation inputs apply at a moment: per component (and custom variable), the input with
// the latest valid_from not after the moment; the arrangement's input wins over the plan's for the
// same component, whatever their dates (spec, "Reimbursement").
export interface InputValue {
  validFrom: Date;
  componentType: string;
  varName: string;
  value: string;
}

const keyOf = (input: InputValue) => (input.componentType === 'custom' ? `custom:${input.varName}` : input.componentType);

function latestAt(inputs: InputValue[], at: Date): Map<string, InputValue> {
  const latest = new Map<string, InputValue>();
  for (const input of inputs) {
    if (input.validFrom.getTime() > at.getTime()) continue;
    const current = latest.get(keyOf(input));
    if (!current || current.validFrom < input.validFrom) latest.set(keyOf(input), input);
  }
  return latest;
}

/** The inputs that price a session at `at`, keyed by component (`custom:<var>` for custom variables). */
export function effectiveInputs(planInputs: InputValue[], arrangementInputs: InputValue[], at: Date): Map<string, InputValue> {
  const effective = latestAt(planInputs, at);
  for (const [key, input] of latestAt(arrangementInputs, at)) effective.set(key, input);
  return effective;
}
