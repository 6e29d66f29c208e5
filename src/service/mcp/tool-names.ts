const NAME_CHARS = /[^A-Za-z0-9_-]/g;
const MAX_NAME = 64;

export interface ServerTools {
  server: string;
  tools: string[];
}

/** One MCP tool as the model sees it: `name`, and the server and tool it calls. */
export interface NamedTool {
  name: string;
  server: string;
  tool: string;
}

function valid(name: string): string {
  return name.replace(NAME_CHARS, '_').slice(0, MAX_NAME) || '_';
}

/**
 * The names the model calls MCP tools by. A tool keeps its name unless another server's tool or a built-in
 * has it (or it is not a valid name); then it becomes `<server>_<tool>`. Names are `[A-Za-z0-9_-]{1,64}`,
 * and a name still taken after that gets a number (`_2`, ...).
 */
export function assignToolNames(servers: ServerTools[], builtins: Iterable<string>): NamedTool[] {
  const reserved = new Set(builtins);
  const count = new Map<string, number>();
  for (const { tools } of servers) for (const tool of tools) count.set(tool, (count.get(tool) ?? 0) + 1);
  const taken = new Set(reserved);
  const named: NamedTool[] = [];
  for (const { server, tools } of servers) {
    for (const tool of tools) {
      const clashes = reserved.has(tool) || (count.get(tool) ?? 0) > 1 || valid(tool) !== tool;
      const base = clashes ? valid(`${server}_${tool}`) : tool;
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
      taken.add(name);
      named.push({ name, server, tool });
    }
  }
  return named;
}

/** The name map of the `system` event: model name -> `{server, tool}`. */
export function nameMap(named: NamedTool[]): Record<string, { server: string; tool: string }> {
  return Object.fromEntries(named.map(({ name, server, tool }) => [name, { server, tool }]));
}
