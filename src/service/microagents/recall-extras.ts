/** A knowledge or task microagent recalled into the conversation, and the trigger that recalled it. */
export interface MicroagentKnowledge {
  name: string;
  trigger: string;
  content: string;
}

/** The `extras` of a `recall` observation (V0 event JSON). A type, not an interface, so it is a plain record. */
export type RecallExtras = {
  recall_type: 'workspace_context' | 'knowledge';
  repo_name: string;
  repo_directory: string;
  repo_branch: string;
  repo_instructions: string;
  /** URL the user opens -> the port the app listens on in the sandbox. */
  runtime_hosts: Record<string, number>;
  additional_agent_instructions: string;
  /** YYYY-MM-DD, UTC. */
  date: string;
  /** Secret name -> description; never a value. */
  custom_secrets_descriptions: Record<string, string>;
  conversation_instructions: string;
  working_dir: string;
  microagent_knowledge: MicroagentKnowledge[];
};

/** A `recall` observation's content (the text the model reads) and extras. */
export interface RecallContent {
  content: string;
  extras: RecallExtras;
}

/** Every field present, as OpenHands clients expect, with the ones not given empty. */
export function recallExtras(
  recallType: RecallExtras['recall_type'],
  fields: Partial<Omit<RecallExtras, 'recall_type'>>,
): RecallExtras {
  return {
    recall_type: recallType,
    repo_name: '',
    repo_directory: '',
    repo_branch: '',
    repo_instructions: '',
    runtime_hosts: {},
    additional_agent_instructions: '',
    date: '',
    custom_secrets_descriptions: {},
    conversation_instructions: '',
    working_dir: '',
    microagent_knowledge: [],
    ...fields,
  };
}
