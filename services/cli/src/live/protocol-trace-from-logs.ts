import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '@gridemu/model';
import type { ProtocolTraceRow } from '@gridemu/metrics';
import { ReplayedLineFilter, TRACE_LOG_MESSAGE } from '@gridemu/runtime/live';

/**
 * A live run's protocol trace (spec `protocol_trace: true`): every process logs its actors' steps
 * as TRACE_LOG_MESSAGE lines; here they become protocol-trace.csv's rows, ordered by emulated time
 * (a tie keeps the order of the logs and of their lines); a line a restart wrote again that is there
 * already is read once (ReplayedLineFilter). A trace line that is not JSON, or lacks
 * a field, is an error naming the log and line.
 */
export function protocolTraceFromLogs(logs: string): ProtocolTraceRow[] {
  const rows: ProtocolTraceRow[] = [];
  const marker = `"msg":"${TRACE_LOG_MESSAGE}"`;
  for (const file of readdirSync(logs)
    .filter((f) => f.endsWith('.log'))
    .sort()) {
    const once = new ReplayedLineFilter();
    readFileSync(join(logs, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!line.includes(marker)) return;
        let e: {
          job?: unknown;
          event?: unknown;
          detail?: unknown;
          time_s?: unknown;
          site?: unknown;
          replayed?: unknown;
        };
        try {
          e = JSON.parse(line) as typeof e;
        } catch {
          throw new InputError(`${join(logs, file)}:${i + 1}: a protocol trace line that is not JSON`);
        }
        if (typeof e.job !== 'string' || typeof e.event !== 'string' || typeof e.time_s !== 'number') {
          throw new InputError(`${join(logs, file)}:${i + 1}: a protocol trace line without job, event and time_s`);
        }
        if (once.repeats(e)) return;
        rows.push({
          time_s: e.time_s,
          job_id: e.job,
          location: typeof e.site === 'string' ? e.site : '',
          event: e.event,
          detail: typeof e.detail === 'string' ? e.detail : '',
        });
      });
  }
  // Array.prototype.sort is stable: equal times keep the logs' order.
  return rows.sort((a, b) => a.time_s - b.time_s);
}
