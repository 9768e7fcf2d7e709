/**
 * A one-line progress bar on a terminal's stderr, shown only once a run has taken over a second,
 * so quick runs and piped output stay clean.
 */
export class ProgressBar {
  private readonly started = Date.now();
  private shown = false;
  private lastDraw = 0;
  private lastLine = Date.now();

  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly enabled = Boolean(process.stderr.isTTY),
    /** Off a terminal, write a plain progress line this often (0: never), so long runs in logs show life. */
    private readonly lineEvery_ms = 0,
  ) {}

  update(done: number, total: number, detail = ''): void {
    const now = Date.now();
    if (!this.enabled) {
      if (this.lineEvery_ms > 0 && now - this.lastLine >= this.lineEvery_ms) {
        this.lastLine = now;
        this.stream.write(`${this.label}: ${done}/${total} ${detail} (${((now - this.started) / 1000).toFixed(0)} s)
`);
      }
      return;
    }
    if (now - this.started < 1000 || now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.shown = true;
    const width = 30;
    const frac = total > 0 ? Math.min(1, done / total) : 0;
    const filled = Math.round(frac * width);
    const elapsed = (now - this.started) / 1000;
    const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
    this.stream.write(
      `\r${this.label} [${bar}] ${(frac * 100).toFixed(0).padStart(3)}% ${done}/${total} ${detail} ${elapsed.toFixed(1)}s\x1b[K`,
    );
  }

  done(): void {
    if (this.shown) this.stream.write('\r\x1b[K');
  }
}
