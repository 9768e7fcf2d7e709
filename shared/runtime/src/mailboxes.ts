import PQueue from 'p-queue';

/** How many deliveries one turn of the run loop makes before it lets I/O in. */
const DELIVERIES_PER_TURN = 1024;

/** One actor's queue of waiting messages. */
export interface Inbox<D> {
  readonly items: D[];
  head: number;
  readonly deliver: (d: D) => void;
}

/**
 * Every hosted actor's mailbox, and the process's run loop over them (DESIGN.md: one message at a
 * time per actor). A message is queued in its actor's inbox; the run loop, a p-queue of
 * concurrency 1, takes one message from each non-empty inbox in turn, synchronously, until all
 * are empty or a turn's budget is spent, then yields to I/O. Handling a burst of messages in one
 * synchronous turn lets the NATS client send everything the handlers published in one write,
 * rather than one per message.
 */
export class Mailboxes<D> {
  private readonly loop = new PQueue({ concurrency: 1, autoStart: false });
  /** Inboxes with something in them, in the order they became non-empty. */
  private readonly runnable: Inbox<D>[] = [];
  private runnableHead = 0;
  private turnQueued = false;

  /** `onTurnEnd` runs after each synchronous batch of deliveries, before the loop yields (output commit). */
  constructor(private readonly onTurnEnd?: () => void) {}

  /** An inbox for one actor; `deliver` handles one of its messages. */
  inbox(deliver: (d: D) => void): Inbox<D> {
    return { items: [], head: 0, deliver };
  }

  post(inbox: Inbox<D>, d: D): void {
    inbox.items.push(d);
    if (inbox.items.length - inbox.head === 1) this.runnable.push(inbox);
    if (!this.turnQueued) {
      this.turnQueued = true;
      void this.loop.add(() => this.turn());
    }
  }

  /** Runs `fn` on the loop before any message, even those already waiting (start hooks), then lets messages through. */
  start(fn: () => void): void {
    void this.loop.add(fn, { priority: 1 });
    this.loop.start();
  }

  /** Resolves when every inbox is empty and the loop is idle. */
  async idle(): Promise<void> {
    await this.loop.onIdle();
  }

  private async turn(): Promise<void> {
    for (;;) {
      let budget = DELIVERIES_PER_TURN;
      while (this.runnableHead < this.runnable.length && budget-- > 0) {
        const box = this.runnable[this.runnableHead++]!;
        const d = box.items[box.head]!;
        box.head++;
        // Round robin: back of the line if it has more, so no actor starves the others.
        if (box.head < box.items.length) {
          this.runnable.push(box);
          // An actor that never catches up must not grow its inbox for ever.
          if (box.head > 1024 && box.head * 2 > box.items.length) {
            box.items.splice(0, box.head);
            box.head = 0;
          }
        } else {
          box.items.length = 0;
          box.head = 0;
        }
        box.deliver(d);
      }
      this.onTurnEnd?.();
      if (this.runnableHead >= this.runnable.length) {
        this.runnable.length = 0;
        this.runnableHead = 0;
        this.turnQueued = false;
        return;
      }
      if (this.runnableHead > 4096) {
        this.runnable.splice(0, this.runnableHead);
        this.runnableHead = 0;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
