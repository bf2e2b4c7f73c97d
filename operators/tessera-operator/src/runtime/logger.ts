/** Structured JSON logs (pino), one line per event, with the component and level names spelled out. */
import { pino, type Logger } from 'pino';

export function createLogger(level = 'info', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { component: 'tessera-operator' },
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
