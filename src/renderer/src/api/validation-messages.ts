import type { ValidationErrorItem as Item } from '../../../shared/api/errors';

function bound(item: Item, name: string): string {
  return String(item.ctx?.[name] ?? '');
}

/** The message of a 422 entry in plain words; the service's own text where it is already plain. */
export function describeIssue(item: Item): string {
  switch (item.type) {
    case 'missing':
      return 'Required.';
    case 'string_too_short':
      return bound(item, 'min_length') === '1'
        ? 'Required.'
        : `Use at least ${bound(item, 'min_length')} characters.`;
    case 'string_too_long':
      return `Use at most ${bound(item, 'max_length')} characters.`;
    case 'int_parsing':
    case 'int_type':
    case 'int_from_float':
      return 'Enter a whole number.';
    case 'float_parsing':
    case 'float_type':
      return 'Enter a number.';
    case 'greater_than_equal':
      return `Enter ${bound(item, 'ge')} or more.`;
    case 'less_than_equal':
      return `Enter ${bound(item, 'le')} or less.`;
    case 'greater_than':
      return `Enter more than ${bound(item, 'gt')}.`;
    case 'value_error':
      return item.msg.replace(/^Value error, /, '');
    default:
      return item.msg;
  }
}
