/**
 * Logger and console: each line goes to the host's log (with its execution, source and level) and to
 * the execution's own text, which Logger.getLog reads and the execution's outcome carries. Arguments
 * are formatted as Apps Script prints them: `%s`-style substitutions, objects as JSON, errors as `Name: message`.
 */
import type { LogLevel, LogSource } from '../protocol/protocol';
import { fromRealm, isDate, type FacadeKit } from './kit';

export function loggingServices(kit: FacadeKit) {
  const lines: string[] = [];
  const log = (source: LogSource, level: LogLevel, text: string) => {
    lines.push(text);
    kit.ops.logWrite(source, level, text);
  };
  const stringify = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (isDate(value) || value === undefined || value === null || typeof value !== 'object') return String(value);
    if (kit.isRealmError(value) || value instanceof Error) return `${value.name}: ${value.message}`;
    try {
      return JSON.stringify(fromRealm(value));
    } catch {
      return String(value);
    }
  };
  const format = (args: unknown[]): string => {
    const [first, ...rest] = args;
    if (typeof first === 'string' && rest.length > 0 && /%[sdifoO]/.test(first)) {
      let index = 0;
      const text = first.replace(/%[sdifoO]/g, () => stringify(rest[index++]));
      return [text, ...rest.slice(index).map(stringify)].join(' ');
    }
    return args.map(stringify).join(' ');
  };

  const Logger = kit.api('Logger', {
    log: (...args: unknown[]) => {
      log('Logger', 'log', format(args));
      return Logger;
    },
    getLog: () => lines.join('\n'),
    clear: () => {
      lines.length = 0;
    },
  });
  // A plain object, not a facade: console calls are neither counted nor checked against the deadline.
  const console = {
    log: (...args: unknown[]) => log('console', 'log', format(args)),
    info: (...args: unknown[]) => log('console', 'info', format(args)),
    debug: (...args: unknown[]) => log('console', 'log', format(args)),
    warn: (...args: unknown[]) => log('console', 'warn', format(args)),
    error: (...args: unknown[]) => log('console', 'error', format(args)),
  };
  return { Logger, console, logText: () => lines.join('\n') };
}
