import { AppError } from './errors';

/** Spellings of one field, the canonical name first (e.g. `['site_id', 'siteId']`). */
export type FieldAliases = readonly (readonly [string, ...string[]])[];

/**
 * Builds the request normaliser of a route that accepts several spellings
 * of its fields (the published descriptions disagree on snake and camel
 * case): it maps every spelling onto the canonical name and drops nulls
 * (null means "not given"). Two spellings of one field that disagree are
 * INVALID_REQUEST; ids among `idFields` agree case-blind (an upper-case
 * UUID names the same item).
 */
export function aliasNormaliser(
  aliases: FieldAliases,
  idFields: ReadonlySet<string>,
): (raw: Record<string, unknown>) => Record<string, unknown> {
  const aliasedNames: ReadonlySet<string> = new Set(aliases.flat());
  const sameValue = (field: string, a: unknown, b: unknown): boolean => {
    if (a === b) return true;
    if (idFields.has(field) && typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
    // Serialised only when a second spelling is given: the common single spelling costs nothing.
    return JSON.stringify(a) === JSON.stringify(b);
  };
  return (raw) => {
    const body: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(raw)) {
      if (!aliasedNames.has(key) && value !== null) body[key] = value;
    }
    for (const names of aliases) {
      let first: string | undefined;
      for (const name of names) {
        const value = raw[name];
        if (value === undefined || value === null) continue;
        if (first === undefined) {
          first = name;
          body[names[0]] = value;
        } else if (!sameValue(names[0], value, raw[first])) {
          throw new AppError('INVALID_REQUEST', `${first} and ${name} are the same field and disagree.`, [
            { code: 'custom', message: `conflicts with ${first}`, path: [name] },
          ]);
        }
      }
    }
    return body;
  };
}
