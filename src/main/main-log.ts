/** The part of the service logger (pino) the shell uses; tests pass a plain recorder. */
export interface MainLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
