import { DRIVER, MessageType, siteAddress, type Address, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';
import { intervalSet, ProcessorIds } from './processor-ids.js';

interface Running {
  readonly ids: [number, number][];
}

/**
 * Runs jobs: gives each the lowest free processor ids, lets it run for its actual run time on the
 * runtime's clock, then frees the processors and tells the scheduler and the results collector.
 */
export class ExecutorActor implements Actor<Message> {
  private readonly ids: ProcessorIds;
  private readonly running = new Map<string, Running>();
  private readonly scheduler: Address;

  constructor(
    readonly siteId: string,
    cpus: number,
    private readonly resultsTo: Address = DRIVER,
    /** Who decides what runs here and must hear when processors free up (the site's scheduler, or the central one). */
    scheduler?: Address,
  ) {
    this.ids = new ProcessorIds(cpus);
    this.scheduler = scheduler ?? siteAddress(siteId, 'scheduler');
  }

  receive(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case MessageType.JobStart: {
        const { job } = msg;
        if (this.running.has(job.id)) throw new Error(`assertion: ${job.id} started twice at ${this.siteId}`);
        const ids = this.ids.take(job.procs);
        this.running.set(job.id, { ids });
        ctx.schedule(job.run_s, { type: MessageType.JobEnds, jobId: job.id });
        ctx.send(this.resultsTo, { type: MessageType.JobStarted, jobId: job.id, site: this.siteId, time_s: ctx.now(), resources: intervalSet(ids) });
        return;
      }
      case MessageType.JobEnds: {
        const r = this.running.get(msg.jobId);
        if (!r) throw new Error(`assertion: ${msg.jobId} ended at ${this.siteId} but was not running`);
        this.running.delete(msg.jobId);
        this.ids.give(r.ids);
        ctx.send(this.scheduler, { type: MessageType.JobFinished, jobId: msg.jobId });
        ctx.send(this.resultsTo, { type: MessageType.JobCompleted, jobId: msg.jobId, site: this.siteId, time_s: ctx.now() });
        return;
      }
      default:
        ctx.log.warn({ type: msg.type, site: this.siteId }, 'executor ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }
}
