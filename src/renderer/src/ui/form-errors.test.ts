import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error';
import { formErrors, NO_ERRORS } from './form-errors';

describe('formErrors', () => {
  const rejected = new ApiError('Some values were not accepted', 422, [
    { field: 'llm_base_url', type: 'string_pattern_mismatch', message: "String should match pattern '^x$'" },
    { field: 'llm_model', type: 'string_type', message: 'Input should be a valid string' },
    { field: 'language', type: 'string_type', message: 'Input should be a valid string' },
  ]);

  it('puts issues of shown fields at the field, with format hints, and lists the others', () => {
    const errors = formErrors(rejected, ['llm_base_url', 'llm_model'], { llm_base_url: 'Use http(s).' });
    expect(errors).toEqual({
      fields: { llm_base_url: 'Use http(s).', llm_model: 'Input should be a valid string' },
      general: ['language: Input should be a valid string'],
    });
  });

  it('shows an error without field issues above the form', () => {
    expect(formErrors(new ApiError('Secret storage is not available.', 503), ['name'])).toEqual({
      fields: {},
      general: ['Secret storage is not available.'],
    });
  });

  it('has nothing to show without an error', () => {
    expect(formErrors(null, ['name'])).toBe(NO_ERRORS);
  });
});
