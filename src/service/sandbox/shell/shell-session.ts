import { randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import {
  CONTINUED_PREFIX,
  NO_COMMAND_FOR_INPUT,
  NO_COMMAND_FOR_LOGS,
  STOPPED_SUFFIX,
  completedSuffix,
  pythonLine,
  refusedSuffix,
  restartedPrefix,
  shellExitedSuffix,
  workingDirLine,
} from './messages';
import { CommandOutput, type InputEcho } from './command-output';
import type { PromptMetadata } from './prompt-marker';
import { INTERRUPT_KEY, commandInput, controlKey, hangUpScript, signalForegroundScript } from './shell-input';
import {
  DEFAULT_SHELL_LIMITS,
  commandWaitLimits,
  fixedWait,
  type ShellLimits,
  type WaitLimits,
} from './shell-limits';
import { shellResult, type ShellOutcome, type ShellResult } from './shell-result';
import { TerminalBuffer } from './terminal-buffer';
import { cleanTerminalText } from './terminal-text';
import type { ShellTransport, Terminal } from './transport';
import { timeoutReport, waitForEnd, type ShellEvent, type WaitEnd } from './wait-for-end';

export interface ShellSessionOptions extends Partial<ShellLimits> {
  /** The directory of the shell that ran before a service restart: start there and say so in the first output. */
  restoredWorkingDir?: string;
}

export interface ExecuteRequest {
  command: string;
  /** Send `command` to the running process (keys C-c, C-d, C-z, C-\ raw; other text with Enter). */
  isInput?: boolean;
  /** Seconds, clamped to 1-600; replaces the no-change rule and the default hard cap. */
  timeout?: number | null;
}

/** The new shell did not show its first prompt. */
export class ShellStartError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
    this.name = 'ShellStartError';
  }
}

/** The text the agent sees for a result: prefix, output, suffix, then working directory and interpreter. */
export function observationText(result: ShellResult): string {
  if (result.outcome === 'error') return result.output;
  const { prefix, suffix, working_dir, py_interpreter_path } = result.metadata;
  let text = prefix + result.output + suffix;
  if (working_dir) text += workingDirLine(working_dir);
  if (py_interpreter_path) text += pythonLine(py_interpreter_path);
  return text;
}

interface Running extends InputEcho {
  command: string;
  /** Output was reported before, so later output is a continuation. */
  continued: boolean;
}

/**
 * One persistent interactive bash for a sandbox: commands run one at a time in the same shell (cwd,
 * variables and functions persist), each ended by the prompt marker, following agent-behaviour §3.1.
 */
export class ShellSession {
  private readonly options: ShellLimits;
  private readonly restoredWorkingDir: string | null;
  private readonly buffer: TerminalBuffer;
  private readonly output: CommandOutput;
  private terminal: Terminal | null = null;
  private generation = 0;
  private decoder = new StringDecoder('utf8');
  private collecting = false;
  private exitCode: number | null = null;
  private prompt: PromptMetadata | null = null;
  private running: Running | null = null;
  private notice = '';
  private stopping: Promise<ShellResult> | null = null;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(event: ShellEvent) => void>();

  constructor(
    private readonly transport: ShellTransport,
    options: ShellSessionOptions = {},
  ) {
    const { restoredWorkingDir, ...limits } = options;
    this.options = { ...DEFAULT_SHELL_LIMITS, ...limits };
    this.restoredWorkingDir = restoredWorkingDir ?? null;
    this.buffer = new TerminalBuffer(this.options.maxBufferedChars);
    this.output = new CommandOutput(transport, this.options.maxOutputChars, newId);
  }

  /** The last prompt's metadata (null before the shell started). */
  get metadata(): PromptMetadata | null {
    return this.prompt;
  }

  /** Whether a command that timed out is still running. */
  get busy(): boolean {
    return this.running !== null;
  }

  /** Starts the shell now instead of at the first command. */
  async start(): Promise<void> {
    await this.serialize(() => this.ensureShell());
  }

  /**
   * Holds the commands queued after this call until `ready` settles (set-up they depend on, e.g. the
   * workspace's `git init`). Its failure is for whoever awaits `ready` to report.
   */
  hold(ready: Promise<unknown>): void {
    this.serialize(() => ready).catch(() => undefined);
  }

  /** Runs a command, polls (empty command) or sends input; calls wait for each other. */
  execute(request: ExecuteRequest): Promise<ShellResult> {
    return this.serialize(() => this.run(request));
  }

  /**
   * Stop (agent-behaviour §2.7): C-c; without a prompt after the grace, SIGINT to the foreground process group, then
   * SIGKILL. Resolves with the command's final result, which an `execute` in flight also returns;
   * null when nothing runs.
   */
  interrupt(): Promise<ShellResult | null> {
    if (this.stopping) return this.stopping;
    if (!this.running) return Promise.resolve(null);
    const stopping = this.stop().finally(() => {
      this.stopping = null;
    });
    this.stopping = stopping;
    this.notify('state');
    return stopping;
  }

  /** Ends the shell (SIGHUP, which bash passes on to its jobs) and detaches. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const terminal = this.terminal;
    try {
      if (terminal && this.prompt) await this.transport.run(hangUpScript(this.prompt.pid));
    } finally {
      terminal?.close();
      this.detach(129);
    }
  }

  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async run(request: ExecuteRequest): Promise<ShellResult> {
    this.assertOpen();
    if (this.stopping) await this.stopping;
    const text = request.command.trim();
    if (this.running && !request.isInput && text !== '' && (this.buffer.marker || this.exitCode !== null)) {
      // The command that timed out has ended since, so the new one may run (in a new shell if need be).
      this.completeCommand();
    }
    const limits = commandWaitLimits(request.timeout, this.options);
    const running = this.running;
    if (!running) {
      if (text === '') return this.errorResult(request.command, NO_COMMAND_FOR_LOGS);
      if (request.isInput) return this.errorResult(request.command, NO_COMMAND_FOR_INPUT);
      await this.ensureShell();
      this.startCommand(text);
      return this.report(await this.waitFor(limits, true), limits, null);
    }
    if (!request.isInput && text !== '') return this.refuse(running, text);
    const key = text === '' ? null : controlKey(text);
    if (key) this.terminal?.write(key.bytes);
    else if (text !== '') {
      running.inputEcho = text;
      this.terminal?.write(`${text}\r`);
    }
    return this.report(await this.waitFor(limits, true), limits, key?.name ?? null);
  }

  private startCommand(command: string): void {
    const input = commandInput(newId(), command, this.transport.commandDir);
    this.running = { command, continued: false, inputEcho: null };
    this.buffer.reset(input.echoEnd);
    this.collecting = true;
    this.terminal?.write(input.text);
  }

  private async report(end: WaitEnd, limits: WaitLimits, keyName: string | null): Promise<ShellResult> {
    if (typeof end === 'object') return end.stop;
    const running = this.current();
    const prefix = this.takeNotice() + (running.continued ? CONTINUED_PREFIX : '');
    const raw = this.buffer.take();
    // State changes happen before the first await, so that a Stop meanwhile sees the command's end.
    if (end === 'marker') {
      const exitCode = this.completeCommand();
      const output = await this.output.render(raw, running);
      return this.result(
        running.command,
        'completed',
        output,
        exitCode,
        prefix,
        completedSuffix(exitCode, keyName),
      );
    }
    if (end === 'exit') {
      const exitCode = this.exitCode ?? -1;
      this.finishCommand();
      const output = await this.output.render(raw, running);
      this.assertOpen();
      await this.startShell(this.prompt?.working_dir ?? null);
      const suffix = shellExitedSuffix(exitCode, this.prompt?.working_dir ?? '');
      return this.result(running.command, 'shell_exited', output, exitCode, prefix, suffix);
    }
    running.continued = true;
    const output = await this.output.render(raw, running);
    const { outcome, suffix } = timeoutReport(end, limits);
    return this.result(running.command, outcome, output, -1, prefix, suffix);
  }

  private async refuse(running: Running, command: string): Promise<ShellResult> {
    const output = await this.output.render(this.buffer.take(), running);
    return this.result(command, 'refused', output, -1, CONTINUED_PREFIX, refusedSuffix(command));
  }

  private async stop(): Promise<ShellResult> {
    const running = this.current();
    this.terminal?.write(INTERRUPT_KEY);
    let end = await this.waitFor(fixedWait(this.options.interruptGraceMs), false);
    for (const signal of ['INT', 'KILL'] as const) {
      if (end !== 'hard_timeout') break;
      if (this.prompt) await this.transport.run(signalForegroundScript(this.prompt.pid, signal));
      end = await this.waitFor(fixedWait(this.options.killGraceMs), false);
    }
    const prefix = this.takeNotice() + (running.continued ? CONTINUED_PREFIX : '');
    const raw = this.buffer.take();
    let exitCode: number;
    if (end === 'marker') {
      exitCode = this.completeCommand();
    } else {
      // The shell died, or even SIGKILL left it without a prompt: the next command starts a new one.
      exitCode = end === 'exit' ? (this.exitCode ?? 137) : 137;
      this.finishCommand();
      if (end !== 'exit') await this.abandonShell(this.prompt?.pid ?? null);
    }
    const output = await this.output.render(raw, running);
    return this.result(running.command, 'interrupted', output, exitCode, prefix, STOPPED_SUFFIX);
  }

  /** Ends the current command at its marker; returns its exit code. */
  private completeCommand(): number {
    const marker = this.buffer.marker;
    if (marker) this.prompt = marker;
    this.finishCommand();
    return marker?.exit_code ?? -1;
  }

  private finishCommand(): void {
    this.running = null;
    this.collecting = false;
    this.buffer.reset(null);
  }

  private current(): Running {
    if (!this.running) throw new Error('No command is running.');
    return this.running;
  }

  private async ensureShell(): Promise<void> {
    if (this.terminal && this.exitCode === null) return;
    const previous = this.prompt?.working_dir ?? this.restoredWorkingDir;
    await this.startShell(previous);
    if (previous !== null) this.notice = restartedPrefix(this.prompt?.working_dir ?? previous);
  }

  private async startShell(startDir: string | null): Promise<void> {
    const generation = ++this.generation;
    this.exitCode = null;
    this.decoder = new StringDecoder('utf8');
    this.buffer.reset(null);
    this.collecting = true;
    const terminal = await this.transport.open({
      startDir,
      onData: (chunk) => {
        if (generation === this.generation) this.receive(chunk);
      },
      onExit: (exitCode) => {
        if (generation === this.generation) this.detach(exitCode);
      },
    });
    if (generation === this.generation) this.terminal = terminal;
    else terminal.close();
    const end = await this.waitFor(fixedWait(this.options.startTimeoutMs), false);
    const marker = this.buffer.marker;
    if (end !== 'marker' || !marker) {
      const output = cleanTerminalText(this.buffer.take());
      if (end !== 'exit') await this.abandonShell(null);
      this.collecting = false;
      const reason = end === 'exit' ? `exited with code ${this.exitCode}` : 'showed no prompt';
      throw new ShellStartError(`The shell ${reason}${output ? `: ${output}` : ''}`, output);
    }
    this.prompt = marker;
    this.collecting = false;
    this.buffer.reset(null);
  }

  /** Gives up on a shell that does not answer: kills it (when its pid is known) and forgets its terminal. */
  private async abandonShell(pid: number | null): Promise<void> {
    const terminal = this.terminal;
    this.generation++;
    this.terminal = null;
    this.exitCode = null;
    if (pid !== null) await this.transport.run(`kill -s KILL ${pid} 2>/dev/null; true`);
    terminal?.close();
  }

  private detach(exitCode: number): void {
    this.terminal = null;
    this.exitCode = exitCode;
    this.generation++;
    this.notify('state');
  }

  private receive(chunk: Buffer): void {
    if (!this.collecting) return;
    this.buffer.append(this.decoder.write(chunk));
    this.notify('data');
  }

  private notify(event: ShellEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  /** Waits for the marker, the end of the shell, a Stop (when `watchStop`), or a timeout. */
  private waitFor(limits: WaitLimits, watchStop: boolean): Promise<WaitEnd> {
    return waitForEnd(
      {
        reached: () =>
          this.buffer.marker
            ? 'marker'
            : this.exitCode !== null
              ? 'exit'
              : watchStop && this.stopping
                ? { stop: this.stopping }
                : null,
        subscribe: (listener) => {
          this.listeners.add(listener);
          return () => this.listeners.delete(listener);
        },
      },
      limits,
    );
  }

  private takeNotice(): string {
    const notice = this.notice;
    this.notice = '';
    return notice;
  }

  private result(
    command: string,
    outcome: ShellOutcome,
    output: string,
    exitCode: number,
    prefix: string,
    suffix: string,
  ): ShellResult {
    return shellResult(this.prompt, { command, outcome, output, exitCode, prefix, suffix });
  }

  private errorResult(command: string, message: string): ShellResult {
    return this.result(command, 'error', message, -1, '', '');
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The shell session is closed.');
  }
}

function newId(): string {
  return randomBytes(6).toString('hex');
}
