import type { z } from 'zod';
import {
  DetailBody,
  InternalErrorBody,
  StatusErrorBody,
  ValidationErrorBody,
} from '../../../shared/api/errors';
import { sentence } from '../text';
import { describeIssue } from './validation-messages';

/** One rejected value of a 422 answer: `field` is its path inside the body (`llm_base_url`, `a.0.b`). */
export interface FieldIssue {
  field: string;
  type: string;
  message: string;
}

/**
 * A failed API call, with a message a person can act on. `status` is 0 when the service was unreachable;
 * `code` is the service's message id (`CONFIGURATION$SETTINGS_NOT_FOUND`) when it sent one.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly issues: FieldIssue[] = [],
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

function issuesOf(body: z.infer<typeof ValidationErrorBody>): FieldIssue[] {
  return body.detail.map((item) => {
    const [where, ...path] = item.loc;
    return { field: where === 'body' ? path.join('.') : '', type: item.type, message: describeIssue(item) };
  });
}

/** Turns an error answer (`{"detail": ...}`, a 422 list, a 500 with an error id) into an ApiError. */
export function errorFromResponse(response: Response, body: unknown): ApiError {
  const validation = ValidationErrorBody.safeParse(body);
  if (validation.success) {
    const issues = issuesOf(validation.data);
    const text = issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ');
    return new ApiError(`Some values were not accepted: ${text}`, response.status, issues);
  }
  const internal = InternalErrorBody.safeParse(body);
  if (internal.success) {
    return new ApiError(
      `The Dockhand service failed unexpectedly (error id ${internal.data.error_id}); its log has the details.`,
      response.status,
    );
  }
  const status = StatusErrorBody.safeParse(body);
  if (status.success) {
    return new ApiError(sentence(status.data.message), response.status, [], status.data.msg_id);
  }
  const detail = DetailBody.safeParse(body);
  if (detail.success) {
    const retryAfter = response.headers.get('Retry-After');
    const wait = response.status === 429 && retryAfter ? ` Try again in ${retryAfter} s.` : '';
    return new ApiError(sentence(detail.data.detail) + wait, response.status);
  }
  return new ApiError(
    sentence(`The Dockhand service answered ${response.status} ${response.statusText}`.trim()),
    response.status,
  );
}
