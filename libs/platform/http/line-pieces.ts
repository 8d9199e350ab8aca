/** A line of an upload longer than the limit; `line` is its 1-based number. */
export class LineTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly limitBytes: number,
  ) {
    super(`line ${line} is longer than ${limitBytes} bytes`);
  }
}

const LF = 0x0a;

/**
 * Cuts a byte stream into pieces of whole lines, for a reader that wants whole records and
 * never the whole body. Each byte is looked at once, when its chunk arrives: the chunks since
 * the last piece are kept as a list (never concatenated until a piece is cut) together with
 * the length of the unfinished line and the offset of the last line break, so the cost is
 * linear in the body whatever its line lengths. A line break (LF, 0x0A) never occurs inside a
 * multi-byte UTF-8 sequence, so a piece ending at one decodes on its own even when a character
 * was split between two chunks. A line (its CR included, its LF not) longer than
 * `lineLimitBytes` throws LineTooLongError as soon as its bytes pass the limit.
 */
export class LinePieces {
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Bytes of `held` up to and including its last line break (0: no line break held). */
  private wholeBytes = 0;
  /** Bytes of the line not yet ended by a line break. */
  private lineBytes = 0;
  /** 1-based number of the line not yet ended. */
  private line = 1;

  constructor(
    private readonly pieceBytes: number,
    private readonly lineLimitBytes: number,
  ) {}

  /** Takes the next chunk; returns a piece once at least `pieceBytes` of whole lines are held. */
  push(chunk: Buffer): string | undefined {
    if (chunk.length === 0) return undefined;
    let from = 0;
    for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, from)) {
      this.lineBytes += at - from;
      this.checkLine();
      this.line++;
      this.lineBytes = 0;
      from = at + 1;
    }
    this.lineBytes += chunk.length - from;
    this.checkLine();
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (from > 0) this.wholeBytes = this.heldBytes - (chunk.length - from);
    return this.wholeBytes >= this.pieceBytes ? this.cut() : undefined;
  }

  /** What remains once the stream has ended (the last line may lack its line break). */
  end(): string {
    const rest = Buffer.concat(this.held, this.heldBytes).toString('utf8');
    this.held = [];
    this.heldBytes = this.wholeBytes = 0;
    return rest;
  }

  /** The held whole lines as text; the unfinished line (all in the last chunk) stays held. */
  private cut(): string {
    // The last line break is in the last chunk held: the one that set `wholeBytes`.
    const last = this.held[this.held.length - 1];
    const tail = this.heldBytes - this.wholeBytes;
    const parts = this.held.slice(0, -1);
    parts.push(last.subarray(0, last.length - tail));
    const piece = Buffer.concat(parts, this.wholeBytes).toString('utf8');
    this.held = tail > 0 ? [last.subarray(last.length - tail)] : [];
    this.heldBytes = tail;
    this.wholeBytes = 0;
    return piece;
  }

  private checkLine(): void {
    if (this.lineBytes > this.lineLimitBytes) throw new LineTooLongError(this.line, this.lineLimitBytes);
  }
}
