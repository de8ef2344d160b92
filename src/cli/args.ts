/** What a command takes: options with a value, switches (no value), and how many plain arguments. */
export interface ArgSpec {
  values?: readonly string[];
  switches?: readonly string[];
  positionals?: number;
}

export interface Args {
  /** `--name value` pairs; a flag given twice collects every value. */
  flags: Map<string, string[]>;
  switches: Set<string>;
  positionals: string[];
}

/**
 * A command's arguments as `spec` says; anything else (an unknown or misspelled option, one plain
 * argument too many) is refused, naming it, before the command does anything.
 */
export function parseArgs(args: string[], spec: ArgSpec): Args {
  const values = spec.values ?? [];
  const switches = spec.switches ?? [];
  const parsed: Args = { flags: new Map(), switches: new Set(), positionals: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) {
      if (parsed.positionals.length >= (spec.positionals ?? 0)) throw new Error(`unexpected argument: ${arg}`);
      parsed.positionals.push(arg);
      continue;
    }
    const name = arg.slice(2);
    if (switches.includes(name)) {
      parsed.switches.add(name);
      continue;
    }
    if (!values.includes(name)) {
      const known = [...values, ...switches].map((known) => `--${known}`).join(', ');
      throw new Error(`unknown option: ${arg}${known ? ` (this command takes ${known})` : ' (this command takes none)'}`);
    }
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
    parsed.flags.set(name, [...(parsed.flags.get(name) ?? []), value]);
    i++;
  }
  return parsed;
}

/** `--name value` pairs of the options `values`; anything else is refused (parseArgs). */
export function parseFlags(args: string[], values: readonly string[]): Map<string, string[]> {
  return parseArgs(args, { values }).flags;
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
