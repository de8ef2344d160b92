/** `--name value` pairs; a flag given twice collects every value. */
export function parseFlags(args: string[]): Map<string, string[]> {
  const flags = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument: ${arg}`);
    const name = arg.slice(2);
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
    flags.set(name, [...(flags.get(name) ?? []), value]);
    i++;
  }
  return flags;
}

export function one(flags: Map<string, string[]>, name: string, required: true): string;
export function one(flags: Map<string, string[]>, name: string, required?: false): string | undefined;
export function one(flags: Map<string, string[]>, name: string, required = false): string | undefined {
  const values = flags.get(name);
  if (!values?.length) {
    if (required) throw new Error(`--${name} is required`);
    return undefined;
  }
  if (values.length > 1) throw new Error(`--${name} given more than once`);
  return values[0];
}
