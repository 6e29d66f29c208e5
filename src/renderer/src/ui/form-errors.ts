import { isApiError } from '../api/api-error';

/** A failed save split into errors shown next to their fields and the rest, shown above the form. */
export interface FormErrors {
  fields: Record<string, string>;
  general: string[];
}

export const NO_ERRORS: FormErrors = { fields: {}, general: [] };

/**
 * Places the errors of a failed save. `patternHints` says in words what a field's format is,
 * in place of the regular expression a 422 `string_pattern_mismatch` quotes.
 */
export function formErrors(
  error: unknown,
  shownFields: readonly string[],
  patternHints: Record<string, string> = {},
): FormErrors {
  if (!error) return NO_ERRORS;
  if (!isApiError(error) || error.issues.length === 0) {
    return { fields: {}, general: [error instanceof Error ? error.message : String(error)] };
  }
  const result: FormErrors = { fields: {}, general: [] };
  for (const issue of error.issues) {
    const message =
      issue.type === 'string_pattern_mismatch' ? (patternHints[issue.field] ?? issue.message) : issue.message;
    if (shownFields.includes(issue.field)) result.fields[issue.field] ??= message;
    else result.general.push(issue.field ? `${issue.field}: ${message}` : message);
  }
  return result;
}
