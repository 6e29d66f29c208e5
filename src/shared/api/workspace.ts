import { z } from 'zod';
import { valueError } from './fields';

/** The 422 `value_error` text for a path that would leave the conversation's workspace. */
export const OUTSIDE_WORKSPACE = 'Path must stay inside the workspace';

/** Whether a path relative to the workspace could stay inside it (no absolute path, `..` or NUL). */
export function isRelativeWorkspacePath(path: string): boolean {
  return !path.startsWith('/') && !path.includes('\0') && !path.split('/').includes('..');
}

/** A path relative to the workspace; where symlinks lead is checked in the sandbox. */
function workspacePath(minLength = 0) {
  return z
    .string()
    .min(minLength)
    .superRefine((path, ctx) => {
      if (!isRelativeWorkspacePath(path)) valueError(ctx, OUTSIDE_WORKSPACE, path);
    });
}

export const VscodeUrlBody = z.object({ vscode_url: z.null() });

/** `{"http://localhost:<port>": <port>}` for the sandbox's app ports. */
export const WebHostsBody = z.object({ hosts: z.record(z.string(), z.number().int()) });

export const MicroagentListBody = z.object({
  microagents: z.array(
    z.object({
      name: z.string(),
      type: z.enum(['repo', 'knowledge']),
      content: z.string(),
      triggers: z.array(z.string()),
      inputs: z.array(z.object({ name: z.string(), description: z.string() })),
      tools: z.array(z.string()),
    }),
  ),
});

/** A folder relative to the workspace; the workspace itself when absent or empty. */
export const ListFilesQuery = z.object({ path: workspacePath().optional() });
/** Paths relative to the workspace, folders first and ending with `/`. */
export const FileListBody = z.array(z.string());

export const SelectFileQuery = z.object({ file: workspacePath(1) });
export const SelectFileBody = z.object({ code: z.string() });

/** The multipart form of an upload: repeated `files` parts. */
export const UploadFilesForm = z.object({ files: z.array(z.string()) });
export const UploadFilesBody = z.object({
  uploaded_files: z.array(z.string()),
  skipped_files: z.array(z.object({ name: z.string(), reason: z.string() })),
});
export type UploadFilesBody = z.infer<typeof UploadFilesBody>;

export const GitChangeStatus = z.enum(['M', 'A', 'D', 'R', 'U']);
export type GitChangeStatus = z.infer<typeof GitChangeStatus>;
export const GitChange = z.object({ status: GitChangeStatus, path: z.string() });
export type GitChange = z.infer<typeof GitChange>;
export const GitChangesBody = z.array(GitChange);

export const GitDiffQuery = z.object({ path: workspacePath(1) });
/** The file in the working tree and at HEAD; `""` where it does not exist. */
export const GitDiffBody = z.object({ modified: z.string(), original: z.string() });
