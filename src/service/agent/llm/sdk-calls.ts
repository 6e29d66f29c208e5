/** The parts of the LLM client that load the AI SDK; `llm-client` imports this on its first call. */
export { classifyLlmError } from './classify-llm-error';
export { languageModelFor } from './provider-factory';
export { streamedCall } from './streamed-call';
export { ollamaChatCall } from './ollama-chat';
export { modelFetch } from './http-transport';
