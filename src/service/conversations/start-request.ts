import type { ConversationCreateRequest } from '../../shared/api/conversations';
import { needsApiKey } from '../agent/llm/model-routing';
import { assertImagesSupported, ImagesNotSupportedError } from '../agent/images';
import { parseTrajectory, ReplayError } from '../agent/replay';
import {
  createMicroagentPrompt,
  suggestedTaskPrompt,
  UnsupportedProviderError,
} from '../agent/prompts/task-prompts';
import type { ServiceContext } from '../context';
import { HttpError, httpError } from '../http/errors';
import type { StartRequest } from './conversation-store';

function statusError(message: string, msgId: string): HttpError {
  return new HttpError(400, { status: 'error', message, msg_id: msgId });
}

/** The settings and the model key a start needs (400 with the status id the clients show). */
export async function checkStartable(ctx: ServiceContext, modelOverride?: string | null): Promise<void> {
  const settings = ctx.settings.stored();
  if (!settings?.llm_model) throw statusError('Settings not found', 'CONFIGURATION$SETTINGS_NOT_FOUND');
  const key = await ctx.secrets.get('llm_api_key');
  if (!key && needsApiKey(modelOverride || settings.llm_model, settings.llm_base_url)) {
    throw statusError(
      'Error authenticating with the LLM provider. Please check your API key',
      'STATUS$ERROR_LLM_AUTHENTICATION',
    );
  }
}

/**
 * The first message and instructions: a suggested task's prompt replaces the message; a create_microagent
 * prompt is both. Images need a vision model (400 otherwise, as OpenHands clients expect).
 */
export function startingText(
  ctx: ServiceContext,
  request: ConversationCreateRequest,
  modelOverride?: string | null,
): StartRequest {
  const model = modelOverride || ctx.settings.stored()?.llm_model || '';
  const images = request.image_urls ?? [];
  try {
    assertImagesSupported(images, model);
    const task = request.suggested_task;
    const microagent = request.create_microagent;
    const provider = request.git_provider ?? task?.git_provider ?? microagent?.git_provider ?? null;
    const taskPrompt = task ? suggestedTaskPrompt(task, provider) : null;
    const microagentPrompt = microagent ? createMicroagentPrompt(microagent, provider ?? 'github') : null;
    const message = [microagentPrompt ?? taskPrompt, request.initial_user_msg].filter(Boolean).join('\n\n');
    const instructions = [request.conversation_instructions, microagentPrompt].filter(Boolean).join('\n\n');
    // Kept in SQLite to restart the pipeline: masked like the events they become.
    const masker = ctx.masker;
    return {
      initial_user_msg: message ? masker.maskText(message) : null,
      image_urls: images,
      conversation_instructions: instructions ? masker.maskText(instructions) : null,
      // A secret in a recorded action becomes <secret_hidden>, which ends the replay there (agent-behaviour §6.7).
      replay: request.replay_json ? masker.mask(parseTrajectory(request.replay_json)) : null,
    };
  } catch (error) {
    if (
      error instanceof ImagesNotSupportedError ||
      error instanceof UnsupportedProviderError ||
      error instanceof ReplayError
    )
      throw httpError(400, error.message);
    throw error;
  }
}
