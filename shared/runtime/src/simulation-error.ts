/** Where a simulation broke: enough to run it again to the same instant. */
export interface SimulationFailure {
  readonly seed: number;
  readonly time_s: number;
  readonly actor: string;
  /** The message being handled (absent in a start hook). */
  readonly message?: { readonly type: string };
  readonly from?: string;
}

/**
 * An actor threw inside SimRuntime: a broken invariant, not bad input. The message names the seed,
 * the emulated time, the actor and the message; the original error is the cause. The CLI adds the
 * command that reproduces it (same spec, same --sets, same seed: same deliveries).
 */
export class SimulationError extends Error {
  constructor(
    readonly failure: SimulationFailure,
    cause: unknown,
  ) {
    const what = failure.message
      ? `handling ${JSON.stringify(failure.message).slice(0, 300)} from ${failure.from}`
      : 'in its start hook';
    super(
      `${failure.actor} failed at t=${failure.time_s} s (seed ${failure.seed}) ${what}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'SimulationError';
  }
}
