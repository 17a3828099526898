import { pino } from 'pino';
import type { Logger } from '../../../logger.ts';

export type LogLine = { level: number; msg: string; [key: string]: unknown };

/** A real pino logger that keeps every line in memory, so tests can check what was logged. */
export function recordingLogger(): { logger: Logger; lines: LogLine[]; messages: () => string[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'trace' }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines, messages: () => lines.map((line) => line.msg) };
}

/** A clock the test moves by hand. */
export function manualClock(start = '2030-01-01T00:00:00.000Z'): { now: () => Date; advance: (ms: number) => void } {
  let currentMs = Date.parse(start);
  return {
    now: () => new Date(currentMs),
    advance: (ms) => {
      currentMs += ms;
    },
  };
}
