/**
 * The `fields` and `rules` of a hook (Dispensary_Webhooks) or an event subscription
 * (Dispensary_Eventing) as settings: their schema in a subscribe body, and the checks the schema
 * cannot make, run when one is subscribed (REST, CLI: a 400 naming the field) and when
 * webhooks.xml/io_events.xml is read at start-up (naming the file and element): paths that leave
 * the data's own properties, unknown operators, regexes RE2 does not take, Adobe's `context_*`
 * values. A setting that passes cannot make a matching request fail.
 */
import { InputException, Joi } from '#framework';
import { compileRegex, pathProblem, RULE_OPERATORS, type PayloadField, type PayloadRule } from './payloadFilters.js';

/** `fields` of a subscribe body: at most 100 `{name, source}`. */
export const payloadFieldsSchema = Joi.array()
  .items(Joi.object({ name: Joi.string().max(255).required(), source: Joi.string().max(255) }))
  .max(100);

/** `rules` of a subscribe body: at most 100 `{field, operator, value}` (operators: filterProblem). */
export const payloadRulesSchema = Joi.array()
  .items(
    Joi.object({
      field: Joi.string().max(255).required(),
      operator: Joi.string().max(32).required(),
      value: Joi.alternatives(Joi.string().allow('').max(4096), Joi.number(), Joi.boolean()),
    }),
  )
  .max(100);

/** A signing secret as webhooks.xml and io_events.xml give it: `env:NAME` or `whsec_...`. */
export const xmlSecretSchema = Joi.string()
  .pattern(/^(env:[A-Za-z_][A-Za-z0-9_]*|whsec_.+)$/)
  .required();

/** A setting refused: the field it is in (`rules[0].value`), its value and why. */
export interface SettingProblem {
  readonly field: string;
  readonly value: unknown;
  readonly reason: string;
}

/**
 * What is wrong with a hook's or event subscription's `fields` and `rules`, checked when it is
 * subscribed and when webhooks.xml/io_events.xml is read: paths that leave the data's own
 * properties, unknown operators, regexes RE2 does not take. Null: nothing.
 */
export function filterProblem(settings: {
  readonly fields?: readonly { name: string; source?: string }[];
  readonly rules?: readonly { field: string; operator: string; value?: unknown }[];
}): SettingProblem | null {
  for (const [i, field] of (settings.fields ?? []).entries()) {
    for (const key of ['name', 'source'] as const) {
      const path = field[key];
      if (path === undefined) continue;
      const reason = pathProblem(path, '.');
      if (reason) return { field: `fields[${i}].${key}`, value: path, reason };
    }
  }
  for (const [i, rule] of (settings.rules ?? []).entries()) {
    const reason = pathProblem(rule.field, '.');
    if (reason) return { field: `rules[${i}].field`, value: rule.field, reason };
    if (!(RULE_OPERATORS as readonly string[]).includes(rule.operator))
      return {
        field: `rules[${i}].operator`,
        value: rule.operator,
        reason: `the operators are ${RULE_OPERATORS.join(', ')}`,
      };
    if (rule.operator === 'regex') {
      try {
        compileRegex(rule.value === undefined ? '' : String(rule.value));
      } catch (error) {
        return { field: `rules[${i}].value`, value: rule.value, reason: (error as Error).message };
      }
    }
  }
  return null;
}

/** Whether a field or rule path names one of Adobe's `context_*` values (Magento's PHP objects, absent here). */
export const isContextPath = (path: string): boolean => /^context_/.test(path);

/**
 * Adobe's `context_*` values are Magento's PHP objects: absent here, a subscription naming one is
 * refused (`<prefix>.fields.source`, `<prefix>.rules.field`) rather than sent empty.
 */
export function refuseContextPaths(
  prefix: string,
  settings: { readonly fields: readonly PayloadField[]; readonly rules: readonly PayloadRule[] },
): void {
  for (const field of settings.fields)
    if (isContextPath(field.source ?? field.name))
      throw InputException.invalidFieldValue(`${prefix}.fields.source`, field.source ?? field.name);
  for (const rule of settings.rules)
    if (isContextPath(rule.field)) throw InputException.invalidFieldValue(`${prefix}.rules.field`, rule.field);
}

/** Magento's invalid-field message, with the reason: `Invalid value of "%value" provided for the %fieldName field: %reason`. */
export function settingException(prefix: string, problem: SettingProblem): InputException {
  return new InputException([
    {
      phrase: 'Invalid value of "%value" provided for the %fieldName field: %reason',
      parameters: {
        fieldName: `${prefix}.${problem.field}`,
        value: typeof problem.value === 'string' ? problem.value : String(problem.value),
        reason: problem.reason,
      },
    },
  ]);
}

/** How a webhooks.xml/io_events.xml element is named in a start-up error: `<rule> 2 (field "...")`. */
export function xmlElementOf(problem: SettingProblem): string {
  const match = /^(fields|rules|headers)\[(\d+)\]\.(\w+)$/.exec(problem.field);
  if (!match) return problem.field;
  const element = { fields: 'field', rules: 'rule', headers: 'header' }[match[1] as 'fields' | 'rules' | 'headers'];
  const attribute = match[1] === 'headers' && match[3] === 'value' ? 'text' : `${match[3]}`;
  return `<${element}> ${Number(match[2]) + 1} (${attribute} "${String(problem.value)}")`;
}
