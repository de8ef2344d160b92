// Where in an input a failure lies, as data: `['charge_periods', 0, 'type']` (member names as the
// input spells them, item indexes as numbers, `[]` for the whole input). The transports render it:
// REST as a JSONPath below the body, GraphQL below the operation's input argument, the CLI below
// the setup file. The domain never writes a transport's notation.
export type FieldPath = readonly (string | number)[];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A field as messages name it, the way yup's `${path}` does: `charge_periods[0].type`. */
export function fieldLabel(path: FieldPath): string {
  let label = '';
  for (const part of path) {
    if (typeof part === 'number') label += `[${part}]`;
    else if (IDENTIFIER.test(part)) label += label ? `.${part}` : part;
    else label += `[${JSON.stringify(part)}]`;
  }
  return label;
}

/**
 * The path of a yup failure (`a.b[0].c`, `a["x.y"]`, `custom_fields["a b"]`) as a FieldPath: the
 * one reading of yup's notation, for every input checked with yup.
 */
export function yupFieldPath(yupPath: string | undefined): FieldPath {
  const path: (string | number)[] = [];
  if (!yupPath) return path;
  let i = 0;
  while (i < yupPath.length) {
    if (yupPath[i] === '.') i++;
    if (yupPath[i] === '[' && yupPath[i + 1] === '"') {
      let end = i + 2;
      while (end < yupPath.length && !(yupPath[end] === '"' && yupPath[end + 1] === ']')) end += yupPath[end] === '\\' ? 2 : 1;
      path.push(quotedMember(yupPath.slice(i + 1, end + 1)));
      i = end + 2;
    } else if (yupPath[i] === '[') {
      const end = yupPath.indexOf(']', i);
      const index = yupPath.slice(i + 1, end === -1 ? undefined : end);
      path.push(/^\d+$/.test(index) ? Number(index) : index);
      i = end === -1 ? yupPath.length : end + 1;
    } else {
      let end = i;
      while (end < yupPath.length && yupPath[end] !== '.' && yupPath[end] !== '[') end++;
      path.push(yupPath.slice(i, end));
      i = end;
    }
  }
  return path;
}

/** `"a b"` as JSON (our own custom-field paths), else as yup writes it (unescaped). */
function quotedMember(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/** A place reached while walking a document: one link per step, made into a FieldPath only when needed. */
export interface Trail {
  readonly up: Trail | null;
  readonly part: string | number;
}

export const step = (up: Trail | null, part: string | number): Trail => ({ up, part });

export function trailPath(trail: Trail | null): FieldPath {
  const path: (string | number)[] = [];
  for (let at = trail; at; at = at.up) path.push(at.part);
  return path.reverse();
}
