import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../../data-dir';

export interface Task {
  id: string;
  title: string;
  status: 'todo' | 'in_progress' | 'done';
  notes?: string | undefined;
}

const MARK: Record<Task['status'], string> = { todo: '[ ]', in_progress: '[~]', done: '[x]' };

/** The agent's plan for one conversation, kept by the service as TASKS.md in the conversation's folder. */
export class TaskList {
  private readonly file: string;

  constructor(conversationDir: string) {
    this.file = path.join(conversationDir, 'TASKS.md');
  }

  /** The list as Markdown, or null before the first plan. */
  read(): string | null {
    return existsSync(this.file) ? readFileSync(this.file, 'utf8') : null;
  }

  replace(tasks: Task[]): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const lines = tasks.map(
      (t) => `- ${MARK[t.status]} ${t.id}. ${t.title}${t.notes ? `\n  ${t.notes}` : ''}`,
    );
    writeFileSync(this.file, `# Task list\n\n${lines.join('\n')}\n`, { mode: PRIVATE_FILE_MODE });
  }
}
