import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { defineTool } from '../agent/tools/define-tool';
import type { AgentTool, ToolObservation } from '../agent/tools/tool';
import type { McpConnection } from './mcp-connection';
import type { NamedTool } from './tool-names';
import { cleanToolSchema, type JsonSchemaObject } from './tool-schema';

type Args = Record<string, unknown>;

/** Validates arguments against the tool's JSON schema; any object when zod cannot read the schema. */
function validatorFor(schema: JsonSchemaObject): z.ZodType<Args> {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Args>;
  } catch {
    return z.record(z.string(), z.unknown());
  }
}

/**
 * An MCP server's tool as an agent tool: the server's (cleaned) JSON schema with an optional
 * `security_risk`, side-effecting unless `readOnlyHint`, analyzed with its hints (`destructiveHint` is HIGH,
 * R9), recorded as a `call_tool_mcp` action answered by an `mcp` observation.
 */
export function mcpAgentTool(
  named: NamedTool,
  tool: Tool,
  connection: McpConnection,
  vision: boolean,
): AgentTool {
  const schema = cleanToolSchema(tool.inputSchema);
  const hints = tool.annotations ?? {};
  const readOnly = hints.readOnlyHint === true;
  return defineTool<Args>({
    name: named.name,
    description:
      tool.description || tool.title || `The ${named.tool} tool of the MCP server ${named.server}.`,
    parameters: validatorFor(schema),
    jsonSchema: schema,
    declaresRisk: 'optional',
    hasSideEffects: () => !readOnly,
    toAction: (args, thought) => ({ kind: 'mcp_call', name: named.name, arguments: args, thought }),
    analyzed: (args) => ({
      tool: 'mcp',
      name: named.name,
      arguments: args,
      readOnlyHint: readOnly,
      destructiveHint: hints.destructiveHint === true,
    }),
    execute: async (args): Promise<ToolObservation> => {
      const outcome = await connection.call(named.tool, named.name, args, vision);
      const imageUrls = outcome.images.map((image) => `data:${image.mimeType};base64,${image.data}`);
      return {
        kind: 'mcp_result',
        name: named.name,
        arguments: args,
        text: outcome.text,
        ...(imageUrls.length ? { imageUrls } : {}),
        success: !outcome.isError,
      };
    },
  });
}
