import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Message } from '@gridemu/protocol';
import { MessageType } from '@gridemu/protocol';
import { silentLogger, type Actor, type ActorContext, type Transport } from '../src/index.js';
import { MAX_LIST_LENGTH, decodeEnvelope, encodeEnvelope } from '@gridemu/protocol/wire';
import { LiveRuntime, MemoryJournal, decodeJournalBatch, wallNow_ms } from '../src/live.js';
import type { Journal } from '../src/journal.js';
import { handBus } from './hand-bus.js';

/** A process alone: nothing crosses a bus. */
const noBus: Transport = {
  publish: () => undefined,
  subscribe: () => ({ unsubscribe: () => undefined }),
  flush: () => Promise.resolve(),
};

/** Ticks every 10 emulated s, tells its partner each tick, and cancels a long timer at the third. */
class Ticker implements Actor<Message> {
  ticks = 0;
  long: number | undefined;
  /**
   * Deliveries of the long timer. Cancelled at the third tick, it is delivered all the same when it
   * fired into the mailbox before that tick was handled (a process stalled 15 wall ms on a busy
   * machine); a replay gives that delivery back, and nothing arms it again.
   */
  longFires = 0;
  recoveredAt: number | undefined;
  /** Its clock when it recovered. */
  recoveredNow: number | undefined;
  start(ctx: ActorContext<Message>): void {
    ctx.schedule(10, { type: MessageType.JobEnds, jobId: 'tick' });
    this.long = ctx.schedule(45, { type: MessageType.SubmitDue }); // due after the third tick cancels it, before the crash
  }
  receive(ctx: ActorContext<Message>, msg: Message): void {
    if (msg.type === MessageType.SubmitDue) {
      this.longFires++;
      return;
    }
    this.ticks++;
    ctx.send('p/sum', { type: MessageType.JobCompleted, jobId: `t${this.ticks}`, site: 'p', time_s: ctx.now() });
    if (this.ticks === 3 && this.long !== undefined) ctx.cancel(this.long);
    ctx.schedule(10, { type: MessageType.JobEnds, jobId: 'tick' });
  }
  recover(ctx: ActorContext<Message>, crashed_s: number): void {
    this.recoveredAt = crashed_s;
    this.recoveredNow = ctx.now();
  }
}

class Summer implements Actor<Message> {
  readonly heard: string[] = [];
  receive(ctx: ActorContext<Message>, msg: Message): void {
    // When the ticker sent it, and when this actor handled it: the replay must give both back.
    if (msg.type === MessageType.JobCompleted) this.heard.push(`${msg.jobId}@${msg.time_s}@${ctx.now()}`);
  }
}

/** Passes each job completion it hears on to q/dst, another process. */
class Relay implements Actor<Message> {
  receive(ctx: ActorContext<Message>, msg: Message): void {
    if (msg.type === MessageType.JobCompleted)
      ctx.send('q/dst', { type: MessageType.JobCompleted, jobId: msg.jobId, site: 'p', time_s: ctx.now() });
  }
}

/** A journaled process hosting one Summer at p/sum. */
function summerProcess(transport: Transport, run: string, store: Journal, recovering: boolean) {
  const summer = new Summer();
  const rt = new LiveRuntime({ transport, run, seed: 1, log: silentLogger, journal: { store, recovering } });
  rt.spawn({ address: 'p/sum', location: 'p', actor: summer });
  return { rt, summer };
}

function process_(journal: MemoryJournal, recovering: boolean) {
  const ticker = new Ticker();
  const summer = new Summer();
  const rt = new LiveRuntime({
    transport: noBus,
    run: 'journal',
    seed: 1,
    log: silentLogger,
    journal: { store: journal, recovering },
  });
  rt.spawn({ address: 'p/tick', location: 'p', actor: ticker });
  rt.spawn({ address: 'p/sum', location: 'p', actor: summer });
  return { rt, ticker, summer };
}

/** A journal a standby can follow while its predecessor appends (as FileJournal.follow reads a file). */
class FollowedJournal extends MemoryJournal {
  private followed = 0;
  /** How many batches the take-over read (readAll): those follow() had not returned. */
  readAtTakeOver: number | undefined;
  follow(): Uint8Array[] {
    const out = this.batches.slice(this.followed);
    this.followed = this.batches.length;
    return out;
  }
  override readAll(): Promise<Uint8Array[]> {
    const rest = this.batches.slice(this.followed);
    this.readAtTakeOver = rest.length;
    return Promise.resolve(rest);
  }
}

describe('LiveRuntime journal (issue 11)', () => {
  it('a restarted process replays its journal to the same state, re-arms pending timers only, and recovers', async () => {
    const journal = new MemoryJournal();
    const first = process_(journal, false);
    const epoch_ms = wallNow_ms() + 20;
    const speedup = 1000; // 10 emulated s every 10 wall ms
    first.rt.start(0, speedup, epoch_ms);
    while (first.ticker.ticks < 6) await new Promise((r) => setTimeout(r, 5));
    await first.rt.stop();
    const crashed_s = first.rt.now();
    const stored = journal.batches.map((b, i) => decodeJournalBatch(b, i));
    expect(stored.map((b) => b.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(stored.flatMap((b) => b.entries).filter((e) => e.k === 'timer').length).toBe(
      first.ticker.ticks + first.ticker.longFires,
    );

    // Down for at least 30 emulated s: the pending tick, due within 10 s of the crash, is due before the restart.
    await new Promise((r) => setTimeout(r, 30));
    const second = process_(journal, true);
    const replayed = await second.rt.resume(0, speedup, epoch_ms, crashed_s);
    expect(replayed.entries).toBe(stored.reduce((n, b) => n + b.entries.length, 0));
    // It resolves once the actors have recovered, and says when they did: when the process was
    // back (network.json's end of its crash, which a replay of the run restarts it at).
    expect(second.ticker.recoveredNow).toBeDefined();
    expect(replayed.resumed_s).toBeGreaterThan(crashed_s);
    expect(replayed.resumed_s).toBeLessThanOrEqual(second.ticker.recoveredNow!);
    // The replay alone rebuilt the state: the ticks, every message between the two actors, and at the times they were handled.
    expect(second.ticker.ticks).toBe(first.ticker.ticks);
    expect(second.summer.heard).toEqual(first.summer.heard);
    expect(second.rt.received).toEqual(first.rt.received);
    expect(second.rt.deliveries).toBe(first.rt.deliveries);
    // ...and what those deliveries felt, as the first life measured it: else a crashed process's
    // report, and the network a replay of the run draws from, hold its last life only.
    const feltBetween = (rt: LiveRuntime) => rt.felt.get('p->p')?.state();
    expect(feltBetween(first.rt)?.count).toBe(first.ticker.ticks);
    expect(feltBetween(second.rt)).toEqual(feltBetween(first.rt));
    // So are the timers' lateness, into the mailbox and to the actor, and its timeline: without
    // them a replay of a run with crashes drew a site's timers from its last life alone.
    const timers = (rt: LiveRuntime) => ({
      fired: rt.timerFireLag.state(),
      handled: rt.timerLag.state(),
      timeline: [...(rt.mailboxTimelines()?.timerFire.get('p') ?? new Map())].map(([w, h]) => [w, h.state()]),
    });
    expect(timers(first.rt).fired.count).toBe(first.ticker.ticks + first.ticker.longFires);
    expect(timers(second.rt)).toEqual(timers(first.rt));
    // Each tick was handled at its due time, 10 s after the last; a long timer delivered between
    // two (Ticker.longFires) moved the actor's clock on to its own due time, and the ticks after it
    // are handled then, late.
    const times = second.summer.heard.map((h) => Number(h.split('@')[1]));
    for (let i = 1; i < times.length; i++) {
      if (first.ticker.longFires === 0) expect(times[i]! - times[i - 1]!).toBeCloseTo(10, 9);
      else expect(times[i]! - times[i - 1]!).toBeGreaterThan(10 - 1e-9);
    }
    // Then it recovers at the crash, and the pending tick (not the cancelled long timer) runs on.
    const before = second.ticker.ticks;
    while (second.ticker.ticks < before + 2) await new Promise((r) => setTimeout(r, 5));
    await second.rt.stop();
    expect(second.ticker.recoveredAt).toBe(crashed_s);
    expect(second.ticker.longFires).toBe(first.ticker.longFires);
    // The tick due while the process was down fired at its restart, late by the crash: counted
    // apart, not as the location's lateness, which a replay applies the crash on top of.
    expect(second.rt.counters.get('timers.held_by_crash')).toBe(1);
    expect(timers(second.rt).fired.count).toBe(second.ticker.ticks - 1 + second.ticker.longFires);
    // A later life reads both lives' timers from the journal alike, the held one apart again.
    const reread = process_(journal, true);
    await reread.rt.replayJournal(speedup);
    expect(reread.rt.counters.get('timers.held_by_crash')).toBe(1);
    expect(timers(reread.rt)).toEqual(timers(second.rt));
    expect(second.rt.counters.get('journal.replayed_entries')).toBe(replayed.entries);
    // A second restart replays the first's recovery too; not told when it died, it takes the last stored delivery.
    const lastStored = Math.max(
      ...journal.batches.flatMap((b, i) => decodeJournalBatch(b, i).entries.map((e) => ('t' in e ? e.t : 0))),
    );
    const third = process_(journal, true);
    await third.rt.resume(0, speedup, epoch_ms, Number.NEGATIVE_INFINITY);
    await third.rt.stop();
    expect(third.summer.heard.slice(0, second.summer.heard.length)).toEqual(second.summer.heard);
    expect(third.ticker.recoveredAt).toBe(lastStored);
  });

  it("a standby follows its predecessor's journal as it is stored, and its take-over replays only the rest, to the same state", async () => {
    const journal = new FollowedJournal();
    const first = process_(journal, false);
    const standby = process_(journal, true);
    const epoch_ms = wallNow_ms() + 20;
    const speedup = 1000;
    first.rt.start(0, speedup, epoch_ms);
    // Three ticks stored: a tick puts nothing out, so it is stored with a later append, within 10 ms.
    const storedTicks = () =>
      journal.batches
        .flatMap((b, i) => decodeJournalBatch(b, i).entries)
        .filter((e) => e.k === 'timer' && e.msg.type === MessageType.JobEnds).length;
    while (storedTicks() < 3) await new Promise((r) => setTimeout(r, 5));
    const early = await standby.rt.followJournal(speedup);
    // What the first had stored by then is in the standby's actors already.
    expect(early.entries).toBeGreaterThanOrEqual(4);
    expect(standby.ticker.ticks).toBeGreaterThanOrEqual(3);
    while (first.ticker.ticks < 6) await new Promise((r) => setTimeout(r, 5));
    await first.rt.stop();
    const crashed_s = first.rt.now();
    const stored = journal.batches.map((b, i) => decodeJournalBatch(b, i));
    const replayed = await standby.rt.resume(0, speedup, epoch_ms, crashed_s);
    // The take-over read only what was stored after the last follow; the count is of the whole journal.
    expect(journal.readAtTakeOver).toBe(stored.length - early.batches);
    expect(replayed.entries).toBe(stored.reduce((n, b) => n + b.entries.length, 0));
    expect(standby.ticker.ticks).toBe(first.ticker.ticks);
    expect(standby.summer.heard).toEqual(first.summer.heard);
    expect(standby.rt.received).toEqual(first.rt.received);
    expect(standby.rt.deliveries).toBe(first.rt.deliveries);
    expect(standby.rt.felt.get('p->p')?.state()).toEqual(first.rt.felt.get('p->p')?.state());
    expect(standby.rt.counters.get('journal.replayed_entries')).toBe(replayed.entries);
    await expect(standby.rt.followJournal(speedup)).rejects.toThrow(/before its replay/);
    await standby.rt.stop();
    expect(standby.ticker.recoveredAt).toBe(crashed_s);
    expect(standby.ticker.longFires).toBe(first.ticker.longFires);
  });

  it('a process killed before its start turn was stored starts its actors when it resumes, once, then recovers', async () => {
    const entriesOf = (journal: MemoryJournal) =>
      journal.batches.flatMap((b, i) => decodeJournalBatch(b, i).entries).filter((e) => e.k !== 'ack');
    const speedup = 1000;
    // Nothing stored: the first life died before its first batch (a busy machine, a slow JetStream).
    const empty = new MemoryJournal();
    const first = process_(empty, true);
    await first.rt.resume(0, speedup, wallNow_ms(), 100);
    const deadline = Date.now() + 30_000; // a bound for a broken runtime, whose actors never start
    while (first.ticker.ticks < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await first.rt.stop();
    expect(first.ticker.ticks).toBeGreaterThanOrEqual(2);
    expect(first.ticker.recoveredAt).toBe(100);
    const kinds = entriesOf(empty).map((e) => `${e.k}:${'a' in e ? e.a : ''}`);
    // Each actor's start at the epoch, journaled, before the recovery; a later restart replays them.
    expect(kinds.slice(0, 4)).toEqual(['start:p/tick', 'start:p/sum', 'recover:p/tick', 'recover:p/sum']);
    expect(entriesOf(empty)[0]).toMatchObject({ t: 0 });
    // Stored: a restart replays the start and does not start the actors again.
    const second = process_(empty, true);
    await second.rt.resume(0, speedup, wallNow_ms(), 200);
    await second.rt.stop();
    expect(entriesOf(empty).filter((e) => e.k === 'start')).toHaveLength(2);
  });

  it('refuses to start a recovering runtime, and to resume one twice', async () => {
    const p = process_(new MemoryJournal(), true);
    expect(() => p.rt.start(0, 1000)).toThrow(/resumes from its journal/);
    const once = p.rt.resume(0, 1000, wallNow_ms(), 0);
    // Even before the first has finished: a second replay would apply the journal twice.
    await expect(p.rt.resume(0, 1000, wallNow_ms(), 0)).rejects.toThrow(/only once/);
    await once;
    await p.rt.stop();
  });

  it('lets a recover hook cancel a timer the replay kept and has not armed yet: it never fires', async () => {
    /** Sets a timer due well after the crash; on recovery, takes it back. */
    class Watchdog implements Actor<Message> {
      timer: number | undefined;
      fired = 0;
      start(ctx: ActorContext<Message>): void {
        this.timer = ctx.schedule(30, { type: MessageType.SubmitDue });
      }
      receive(): void {
        this.fired++;
      }
      recover(ctx: ActorContext<Message>): void {
        if (this.timer !== undefined) ctx.cancel(this.timer);
      }
    }
    const journal = new MemoryJournal();
    const spawn = (recovering: boolean) => {
      const dog = new Watchdog();
      const rt = new LiveRuntime({
        transport: noBus,
        run: 'dog',
        seed: 1,
        log: silentLogger,
        journal: { store: journal, recovering },
      });
      rt.spawn({ address: 'p/dog', location: 'p', actor: dog });
      return { rt, dog };
    };
    const epoch_ms = wallNow_ms() + 20;
    const speedup = 1000; // the timer is due 30 wall ms after the epoch
    const first = spawn(false);
    first.rt.start(0, speedup, epoch_ms);
    await first.rt.stop();
    const second = spawn(true);
    await second.rt.resume(0, speedup, epoch_ms, 0);
    // Well past its due time: a timer armed anyway would have fired by now.
    await new Promise((r) => setTimeout(r, 150));
    await second.rt.stop();
    expect(second.dog.timer).toBe(first.dog.timer);
    expect(second.dog.fired).toBe(0);
  });

  it('acknowledges a durable message only once its delivery is stored, even when a burst outlasts a turn', async () => {
    // Appends are stored only when the test says so, so what has left the process can be compared
    // with what the journal holds at every point.
    const pending: (() => void)[] = [];
    const stored: Uint8Array[] = [];
    const gated: Journal = {
      append: (batch) =>
        new Promise<void>((resolve) =>
          pending.push(() => {
            stored.push(batch.slice());
            resolve();
          }),
        ),
      readAll: () => Promise.resolve([...stored]),
    };
    // Acknowledgements: every message of the link numbered up to this one is stored.
    const acked: number[] = [];
    // Every answer in order: its acknowledgement, its receipts (the process has these, not yet
    // stored: the sender stops resending them on a timer), and whether it goes on in the next.
    const answers: { upto: number | undefined; received: readonly number[]; more: boolean }[] = [];
    const bus = handBus((bytes) => {
      const d = decodeEnvelope(bytes, 'acks');
      if (!d.ok || d.envelope.msg.type !== MessageType.BusAck) return;
      const { upto, received, more } = d.envelope.msg;
      if (upto !== undefined) acked.push(upto);
      // A journaled process's answer always carries its receipts, if only an empty list.
      expect(received).toBeDefined();
      answers.push({ upto, received: received ?? [], more: more === true });
    });
    const { rt, summer } = summerProcess(bus.transport, 'acks', gated, false);
    rt.start(0, 1000);
    // More than one turn's budget of deliveries (1,024) at once, more receipts than one answer's
    // list may hold (MAX_LIST_LENGTH: a longer one is dropped as malformed), and a resent copy of one.
    const N = MAX_LIST_LENGTH + 900;
    const copy = (i: number) =>
      encodeEnvelope({
        run: 'acks',
        from: 'q/src',
        to: 'p/sum',
        lseq: i + 1,
        msg: { type: MessageType.JobCompleted, jobId: `j${i}`, site: 'q', time_s: 0 },
      });
    for (let i = 0; i < N; i++) bus.deliver('p/sum', copy(i), 'q');
    bus.deliver('p/sum', copy(N - 1), 'q');
    const storedNumbers = () =>
      new Set(
        stored.flatMap((b, i) =>
          decodeJournalBatch(b, i).entries.flatMap((e) => {
            if (e.k !== 'bus') return [];
            const d = decodeEnvelope(e.envelope, 'acks');
            return d.ok && d.envelope.lseq !== undefined ? [d.envelope.lseq] : [];
          }),
        ),
      );
    // The highest number up to which every message is stored.
    const storedThrough = () => {
      const holds = storedNumbers();
      let n = 0;
      while (holds.has(n + 1)) n++;
      return n;
    };
    for (let rounds = 0; summer.heard.length < N || pending.length > 0; rounds++) {
      if (rounds > 10_000) throw new Error(`stuck: ${summer.heard.length} handled, ${pending.length} appends pending`);
      await new Promise((r) => setImmediate(r));
      // Before each append is stored, nothing it holds has been acknowledged.
      const through = storedThrough();
      expect(acked.filter((n) => n > through)).toEqual([]);
      pending.shift()?.();
    }
    await new Promise((r) => setImmediate(r));
    const stop = rt.stop();
    while (pending.length > 0) pending.shift()!();
    await stop;
    // Every message acknowledged once it was stored, the resent one by its first copy's
    // acknowledgement, cumulatively: a rising number, sent at most every 10 ms, up to the last.
    expect(acked).toEqual([...acked].sort((a, b) => a - b));
    expect(acked.at(-1)).toBe(N);
    expect(acked.length).toBeLessThan(N / 10);
    expect(storedNumbers().size).toBe(N);
    // Every copy arrived before the first flush, and its first answer told each one's arrival: as
    // received, or covered by the acknowledgement it carried, in parts a receiver decodes.
    const first = answers.slice(0, answers.findIndex((a) => !a.more) + 1);
    const told = new Set(first.flatMap((a) => a.received));
    const firstUpto = Math.max(0, ...first.map((a) => a.upto ?? 0));
    expect(Array.from({ length: N }, (_, i) => i + 1).filter((n) => n > firstUpto && !told.has(n))).toEqual([]);
    expect(Math.max(...answers.map((a) => a.received.length))).toBeLessThanOrEqual(MAX_LIST_LENGTH);
    // No receipt repeats what an acknowledgement already said, and the last answer never goes on.
    let ackedSoFar = 0;
    for (const a of answers) {
      ackedSoFar = Math.max(ackedSoFar, a.upto ?? 0);
      expect(a.received.filter((n) => n <= ackedSoFar)).toEqual([]);
    }
    expect(answers.at(-1)!.more).toBe(false);
    expect(rt.counters.get('bus.duplicates')).toBe(1);
  });

  it("lets a turn's output leave once a synchronous store has its append, and a network store's at the end of the loop pass", async () => {
    // The start's turn puts nothing out, so it waits up to 10 ms for the delivery's append: on the
    // test's clock, not the machine's, else a busy machine stores it alone before the delivery.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    for (const synchronous of [true, false]) {
      const memory = new MemoryJournal();
      // The same store, seen as one over the network: its appends resolve later than they return.
      const store: Journal = synchronous
        ? memory
        : { append: (b, seq) => memory.append(b, seq), readAll: () => memory.readAll() };
      // What had been stored when each message left: never less than the delivery that sent it.
      const storedAtPublish: number[] = [];
      const bus = handBus(() => storedAtPublish.push(memory.batches.length));
      const rt = new LiveRuntime({
        transport: bus.transport,
        run: 'now',
        seed: 1,
        log: silentLogger,
        journal: { store, recovering: false },
      });
      rt.spawn({ address: 'p/relay', location: 'p', actor: new Relay() });
      rt.start(0, 1000);
      await new Promise((r) => setImmediate(r));
      const before = memory.batches.length;
      bus.deliver(
        'p/relay',
        encodeEnvelope({
          run: 'now',
          from: 'q/src',
          to: 'p/relay',
          msg: { type: MessageType.JobCompleted, jobId: 'j1', site: 'q', time_s: 0 },
        }),
        'q',
      );
      // Microtasks only: the loop pass has not ended.
      for (let i = 0; i < 50; i++) await Promise.resolve();
      expect(storedAtPublish.length).toBe(synchronous ? 1 : 0);
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      expect(storedAtPublish).toEqual([before + 1]);
      // The start put nothing out, so it waited for this append (output commit: JournalWriter).
      const entries = decodeJournalBatch(memory.batches[before]!, before).entries;
      expect(entries.map((e) => e.k)).toEqual(['start', 'bus']);
      await rt.stop();
    }
  });

  it('a restart replays its journal before it is due, hearing nothing on the bus until it listens', async () => {
    const journal = new MemoryJournal();
    const bus = handBus();
    const subscribed = new Set<string>();
    const transport: Transport = {
      ...bus.transport,
      subscribe: (target, onBytes) => {
        if ('actor' in target) subscribed.add(target.actor);
        return bus.transport.subscribe(target, onBytes);
      },
    };
    const completion = (job: string, at_s: number) =>
      encodeEnvelope({
        run: 'early',
        from: 'q/src',
        to: 'p/sum',
        at_s,
        msg: { type: MessageType.JobCompleted, jobId: job, site: 'q', time_s: at_s },
      });
    const wallEpoch_ms = wallNow_ms() - 10_000;
    const first = summerProcess(transport, 'early', journal, false);
    first.rt.start(0, 1000, wallEpoch_ms);
    bus.deliver('p/sum', completion('a', 9_000), 'q');
    bus.deliver('p/sum', completion('b', 9_500), 'q');
    while (first.summer.heard.length < 2) await new Promise((r) => setTimeout(r, 5));
    await first.rt.stop();

    subscribed.clear();
    const second = summerProcess(transport, 'early', journal, true);
    // Spawned, and its state back from the journal, yet not on the bus: it is still down.
    const replayed = await second.rt.replayJournal(1);
    expect(replayed.entries).toBeGreaterThanOrEqual(2);
    expect(second.summer.heard).toEqual(first.summer.heard);
    expect(subscribed.size).toBe(0);
    await expect(second.rt.replayJournal(1)).rejects.toThrow(/only once/);
    // Due: it listens, and resume does not replay again.
    second.rt.listen();
    expect([...subscribed]).toEqual(['p/sum']);
    await second.rt.resume(0, 1000, wallEpoch_ms, 10_000);
    expect(second.summer.heard).toEqual(first.summer.heard);
    expect(second.rt.counters.get('journal.replayed_entries')).toBe(replayed.entries);
    bus.deliver('p/sum', completion('c', second.rt.now()), 'q');
    await second.rt.stop();
    expect(second.summer.heard.map((h) => h.split('@')[0])).toEqual(['a', 'b', 'c']);
  });

  it("counts a message sent before the crash and delivered after the restart as held by the fault, not as its link's delay", async () => {
    const journal = new MemoryJournal();
    const bus = handBus();
    const spawn = (recovering: boolean) => summerProcess(bus.transport, 'held', journal, recovering).rt;
    // The run is 10,000 emulated s old (speed-up 1,000); the first incarnation dies at once.
    const wallEpoch_ms = wallNow_ms() - 10_000;
    const first = spawn(false);
    first.start(0, 1000, wallEpoch_ms);
    await first.stop();
    const second = spawn(true);
    const { died_s } = await second.resume(0, 1000, wallEpoch_ms, 9_000);
    const completion = (job: string, at_s: number) =>
      encodeEnvelope({
        run: 'held',
        from: 'q/src',
        to: 'p/sum',
        at_s,
        msg: { type: MessageType.JobCompleted, jobId: job, site: 'q', time_s: at_s },
      });
    // Sent before the process died, never stored by it: it reaches the new one only because the crash
    // lost it (and its sender sent it again). Then one sent after the restart.
    bus.deliver('p/sum', completion('before', died_s - 5_000), 'q');
    bus.deliver('p/sum', completion('after', second.now()), 'q');
    await second.stop();
    expect(second.counters.get('felt.held_by_fault')).toBe(1);
    expect(second.felt.get('q->p')?.state().count).toBe(1);
    // The one it felt, split into its arrival and its wait in the mailbox.
    const split = (rt: LiveRuntime) => ({
      arrived: rt.arrivedByType.get(MessageType.JobCompleted)?.get('q->p')?.state(),
      waited: rt.waitedByType.get(MessageType.JobCompleted)?.get('q->p')?.state(),
      timeline: [...(rt.mailboxTimelines()?.arrived.get('q->p') ?? new Map())].map(([w, h]) => [w, h.state()]),
      waits: [...(rt.mailboxTimelines()?.waited.get('q->p') ?? new Map())].map(([w, h]) => [w, h.state()]),
    });
    expect(split(second).arrived?.count).toBe(1);
    expect(split(second).waited?.count).toBe(1);
    expect(split(second).timeline).toHaveLength(1);
    expect(split(second).waits).toHaveLength(1);
    // A third life, replaying both: the journal says when the second resumed, so the message sent
    // before then is held by that crash again, and the other is its link's delay again.
    const third = spawn(true);
    await third.replayJournal(1000);
    expect(third.counters.get('felt.held_by_fault')).toBe(1);
    expect(third.felt.get('q->p')?.state()).toEqual(second.felt.get('q->p')?.state());
    // Its journal kept when the message reached the mailbox: the third life measures the split again
    // (network.json's mailbox, which a replay draws arrivals and waits from), not only the whole delay.
    expect(split(third)).toEqual(split(second));
  });
});
