import { z } from 'zod';
import type { LlmToolDefinition } from '../llm/llm-types';
import { executeBashTool } from './execute-bash';
import { finishTool } from './finish';
import { strReplaceEditorTool } from './str-replace-editor';
import { taskTrackerTool } from './task-tracker';
import { thinkTool } from './think';
import type { AgentTool } from './tool';

export const RISK_LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const;

const SECURITY_RISK_SCHEMA = {
  type: 'string',
  enum: [...RISK_LEVELS],
  description:
    'The risk of this action: LOW (read-only), MEDIUM (workspace changes, installs, running project code), HIGH (data or credential exposure, privilege, publishing, remote history, files outside the workspace).',
} as const;

/** The tools a conversation offers, by name. MCP tools join through `add`. */
export class ToolRegistry {
  private readonly tools = new Map<string, AgentTool>();
  /** The definitions are asked for at every step; they change only when a tool is added. */
  private cached: LlmToolDefinition[] | null = null;

  constructor(tools: AgentTool[] = BUILTIN_TOOLS) {
    for (const tool of tools) this.add(tool);
  }

  add(tool: AgentTool): void {
    this.tools.set(tool.name, tool);
    this.cached = null;
  }

  /** The names of the tools offered so far. */
  names(): string[] {
    return [...this.tools.keys()];
  }

  get(name: string): AgentTool | undefined {
    return this.tools.get(name);
  }

  /** The definitions sent to the model: JSON schemas, with `security_risk` where the tool declares one. */
  definitions(): LlmToolDefinition[] {
    this.cached ??= [...this.tools.values()].map((tool) => {
      const schema = (
        tool.jsonSchema ? { ...tool.jsonSchema } : z.toJSONSchema(tool.parameters, { io: 'input' })
      ) as Record<string, unknown> & {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      delete schema.$schema;
      if (tool.declaresRisk) {
        schema.properties = { ...schema.properties, security_risk: SECURITY_RISK_SCHEMA };
        if (tool.declaresRisk === true) schema.required = [...(schema.required ?? []), 'security_risk'];
      }
      return {
        name: tool.name,
        description: tool.description,
        parameters: schema as LlmToolDefinition['parameters'],
      };
    });
    return this.cached;
  }
}

export const BUILTIN_TOOLS = [
  executeBashTool,
  strReplaceEditorTool,
  thinkTool,
  finishTool,
  taskTrackerTool,
] as unknown as AgentTool[];
