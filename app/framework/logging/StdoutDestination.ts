/**
 * A pino destination over a writable stream (process.stdout) that can never stall the process:
 * writes are asynchronous (libuv buffers them while a pipe is full), at most `maxBuffered` bytes
 * wait in memory (further lines are dropped and counted), a broken pipe (EPIPE: the reader went
 * away) turns logging off instead of throwing, and flush() waits a bounded time.
 */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

export class StdoutDestination {
  private broken = false;
  /** Lines dropped because the reader was gone or too slow. */
  dropped = 0;

  constructor(
    private readonly stream: NodeJS.WritableStream & { writableLength: number },
    private readonly maxBuffered = DEFAULT_MAX_BUFFERED_BYTES,
  ) {
    stream.on('error', () => {
      this.broken = true;
    });
  }

  write(line: string): boolean {
    if (this.broken || this.stream.writableLength > this.maxBuffered) {
      this.dropped++;
      return true;
    }
    try {
      this.stream.write(line);
    } catch {
      // A stream destroyed under us: the same as a broken pipe.
      this.broken = true;
    }
    return true;
  }

  flush(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // 'drain' fires only after a write was refused, so watch the buffer itself.
    return new Promise((resolve) => {
      const check = () => {
        if (this.broken || this.stream.writableLength === 0 || Date.now() >= deadline) resolve();
        else setTimeout(check, 10);
      };
      check();
    });
  }
}
