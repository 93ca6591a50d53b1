interface Waiting<I, O> {
  item: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/** The most items one batch writes, unless told otherwise. */
export const DEFAULT_MAX_BATCH = 500;

/**
 * Writes concurrent requests together: while one batch is in flight, new requests wait and go
 * out as the next batch, in one statement (or one round trip). An idle system writes each request
 * at once; a busy one pays one round trip and one commit for many. `write` returns one output per
 * item, in order.
 *
 * When a batch fails and `retryAlone` says the failure may be an item's own (by default, any
 * failure), its items are retried one by one, so one bad item (or a deadlock with a neighbour)
 * fails only itself.
 */
export class GroupCommit<I, O> {
  private waiting: Waiting<I, O>[] = [];
  private writing = false;

  constructor(
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly maxBatch = DEFAULT_MAX_BATCH,
    private readonly retryAlone: (error: unknown) => boolean = () => true,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) await this.writeBatch(this.waiting.splice(0, this.maxBatch));
    this.writing = false;
  }

  private async writeBatch(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const outputs = await this.write(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(outputs[i]));
    } catch (error) {
      if (batch.length === 1 || !this.retryAlone(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
      for (const w of batch) await this.writeBatch([w]);
    }
  }
}
