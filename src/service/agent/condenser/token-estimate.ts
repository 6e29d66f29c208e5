import type { LlmRequest } from '../llm/llm-types';
import type { ModelRoute } from '../llm/model-routing';
import { prepareCall } from '../llm/request-preparation';
import { estimatedUsage } from '../llm/usage-and-cost';

/**
 * The prompt's size in tokens, estimated as characters / 4 of what the client would send for `request`
 * (system prompt, messages and tools; images are not counted), as the client estimates usage. Without a
 * `toolFormat` the native format is assumed: the text format's instructions are about as long.
 */
export function tokenEstimate(
  route: ModelRoute,
  request: Pick<LlmRequest, 'system' | 'messages' | 'tools' | 'toolFormat'>,
): number {
  return estimatedUsage(prepareCall(route, request, request.toolFormat ?? 'native').promptChars, 0).prompt;
}
