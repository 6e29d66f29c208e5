/** What decides whether a presented key is valid; `KeyGate` throttles the failures of any checker. */
export interface KeyChecker {
  /** Whether `key` is valid, constant-time; `conversationId` names the conversation the request is scoped to. */
  accepts(key: string, conversationId?: string): boolean;
}
