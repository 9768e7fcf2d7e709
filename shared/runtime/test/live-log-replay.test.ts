import { describe, expect, it } from 'vitest';
import { MessageType, type Message } from '@gridemu/protocol';
import { encodeEnvelope } from '@gridemu/protocol/wire';
import type { Actor, ActorContext, Logger } from '../src/index.js';
import { LiveRuntime, MemoryJournal, ReplayedLineFilter, decodeJournalBatch, wallNow_ms } from '../src/live.js';
import type { Journal } from '../src/journal.js';
import { handBus } from './hand-bus.js';

/** Logs a start for each job it hears of, as an executor does. */
class Starter implements Actor<Message> {
  receive(ctx: ActorContext<Message>, msg: Message): void {
    if (msg.type === MessageType.JobCompleted)
      ctx.log.info({ event: 'job.started', jobId: msg.jobId, time_s: ctx.now() }, 'job started');
  }
}

/** What a process wrote to its log, as parsed JSON lines would read. */
function capturingLogger(): Logger & { readonly lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const line = (f: Record<string, unknown>, msg: string) => lines.push({ ...f, msg });
  return { lines, debug: line, info: line, warn: line, error: line, flush: () => undefined };
}

/**
 * A store over the network holding `memory`: an append is stored at once and answered at once,
 * unless `unanswered`, when it is stored and its answer never comes (the process is killed between
 * JetStream's store and its acknowledgement).
 */
function networkStore(memory: MemoryJournal): Journal & { unanswered: boolean } {
  return {
    unanswered: false,
    append(batch, seq) {
      void memory.append(batch, seq);
      return this.unanswered ? new Promise<void>(() => undefined) : Promise.resolve();
    },
    readAll: () => memory.readAll(),
  };
}

/** Hands the executor a job's completion, as another process would send it. */
function deliverJob(bus: ReturnType<typeof handBus>, jobId: string): void {
  const msg: Message = { type: MessageType.JobCompleted, jobId, site: 'q', time_s: 0 };
  bus.deliver('p/exec', encodeEnvelope({ run: 'logs', from: 'q/src', to: 'p/exec', msg }), 'q');
}

function starterProcess(store: Journal, recovering: boolean) {
  const log = capturingLogger();
  const bus = handBus();
  const rt = new LiveRuntime({ transport: bus.transport, run: 'logs', seed: 1, log, journal: { store, recovering } });
  rt.spawn({ address: 'p/exec', location: 'p', actor: new Starter() });
  return { rt, log, bus };
}

const startsIn = (lines: readonly Record<string, unknown>[]) =>
  lines.filter((l) => l['event'] === 'job.started').map((l) => `${String(l['jobId'])}${l['replayed'] ? '*' : ''}`);

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 2));
}

describe('log lines of a turn stored and not yet released at a crash', () => {
  it('are written again by the restart, marked, and only those past the last batch the journal says was released', async () => {
    const memory = new MemoryJournal();
    const store = networkStore(memory);
    const first = starterProcess(store, false);
    const epoch_ms = wallNow_ms();
    first.rt.start(0, 1000, epoch_ms);
    for (const job of ['j1', 'j2']) {
      deliverJob(first.bus, job);
      await until(() => startsIn(first.log.lines).includes(job));
    }
    // j3's turn is stored, and the process dies before the store's answer lets its line out.
    store.unanswered = true;
    const storedBefore = memory.batches.length;
    deliverJob(first.bus, 'j3');
    await until(() => memory.batches.length > storedBefore);
    await new Promise((r) => setTimeout(r, 20));
    expect(startsIn(first.log.lines)).toEqual(['j1', 'j2']);
    const batches = memory.batches.map((b, i) => decodeJournalBatch(b, i));
    // Each batch says how far the output had left when it was made: j3's, that j2's had.
    expect(batches.at(-1)!.released).toBe(batches.at(-2)!.seq);

    // The restart reads the same journal (the dead process's store, answered or not).
    const restarted = starterProcess(networkStore(memory), true);
    await restarted.rt.resume(0, 1000, epoch_ms, first.rt.now());
    expect(startsIn(restarted.log.lines)).toEqual(['j3*']);
    expect(restarted.rt.counters.get('journal.log_lines_written_again')).toBe(1);
    // Its own batches say the replayed ones are out: a later restart writes nothing again.
    await until(() => decodeJournalBatch(memory.batches.at(-1)!, 0).released! >= batches.at(-1)!.seq);
    await restarted.rt.stop();
    const third = starterProcess(networkStore(memory), true);
    await third.rt.replayJournal(1000);
    expect(startsIn(third.log.lines)).toEqual([]);
    await third.rt.stop().catch(() => undefined);

    // A reader of the whole log reads j3 once: the dead process never wrote it.
    const once = new ReplayedLineFilter();
    const read = [...first.log.lines, ...restarted.log.lines].filter((l) => !once.repeats(l));
    expect(startsIn(read)).toEqual(['j1', 'j2', 'j3*']);
  });

  it('a reader drops a replayed line its predecessor wrote after all, and keeps one it did not', () => {
    const once = new ReplayedLineFilter();
    const line = { level: 30, time: 1, site: 's1', event: 'job.started', jobId: 'a', time_s: 5, msg: 'job started' };
    expect(once.repeats(line)).toBe(false);
    // The same line written again by a restart, later on the wall clock: read once.
    expect(once.repeats({ ...line, time: 9, replayed: true })).toBe(true);
    // A line of another start, written only by the restart: it counts.
    expect(once.repeats({ ...line, time: 9, time_s: 6, replayed: true })).toBe(false);
    // Two starts the same process logged itself are never folded, even alike (a double start is what the check looks for).
    expect(once.repeats({ ...line, time: 12 })).toBe(false);
  });
});
