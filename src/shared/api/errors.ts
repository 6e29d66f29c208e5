import { z } from 'zod';

/** One entry of a FastAPI validation error. */
export const ValidationErrorItem = z.object({
  type: z.string(),
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  input: z.unknown(),
  ctx: z.record(z.string(), z.unknown()).optional(),
});
export type ValidationErrorItem = z.infer<typeof ValidationErrorItem>;

/** 422 body. */
export const ValidationErrorBody = z.object({ detail: z.array(ValidationErrorItem) });

/** Every other error: `{"detail": "<text>"}`. */
export const DetailBody = z.object({ detail: z.string() });

/** 500 body: a bug, with an id to find it in the log. */
export const InternalErrorBody = z.object({ detail: z.string(), error_id: z.string() });

/** Body of the errors that OpenHands clients read from `POST /api/conversations`. */
export const StatusErrorBody = z.object({
  status: z.literal('error'),
  message: z.string(),
  msg_id: z.string(),
});

export const MessageBody = z.object({ message: z.string() });
export const SuccessBody = z.object({ success: z.literal(true) });
