/** `tool_call_metadata` of agent actions; `arguments` (an extension) keeps the call as the model sent it. */
export interface CallMetadata {
  function_name: string;
  tool_call_id: string;
  model_response: { id: string };
  total_calls_in_response: number;
  arguments: unknown;
}
