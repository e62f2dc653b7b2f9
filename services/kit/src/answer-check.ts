import type { z } from 'zod';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/**
 * Paths of fields in `value` that `schema` does not declare, at any depth. zod strips unknown keys
 * when parsing, which is right for input and wrong for checking what we send: a field the contract
 * does not list must fail a test, not quietly reach a user.
 */
export function undeclaredFields(schema: z.ZodType, value: unknown, path = ''): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return value === undefined || value === null ? [] : undeclaredFields(def.innerType!, value, path);
    case 'pipe':
      return undeclaredFields(def.in!, value, path);
    case 'array':
      return Array.isArray(value)
        ? value.flatMap((item, i) => undeclaredFields(def.element!, item, `${path}[${i}]`))
        : [];
    case 'union': {
      // The member the value parses as decides; no member (a parse failure) is reported elsewhere.
      const member = def.options!.find((option) => option.safeParse(value).success);
      return member ? undeclaredFields(member, value, path) : [];
    }
    case 'object': {
      if (typeof value !== 'object' || value === null) return [];
      const shape = def.shape!;
      return Object.entries(value).flatMap(([key, child]) => {
        const at = path ? `${path}.${key}` : key;
        const field = shape[key];
        return field ? undeclaredFields(field, child, at) : [at];
      });
    }
    default:
      return [];
  }
}

/**
 * Checks an answer against its schema: it must parse, and carry no undeclared field. Returns the
 * problems, empty when the answer is what the contract says.
 */
export function answerProblems(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    return parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(answer)'}: ${i.message}`);
  }
  return undeclaredFields(schema, value).map((p) => `${p}: not declared in the contract`);
}
