/**
 * Reads PostgreSQL's backend messages as they stream in and keeps one thing of them: the first
 * column of the first DataRow, in binary format, copied once into a buffer of its exact size. The
 * pieces may cut a message anywhere. Other messages are skipped, except an ErrorResponse, whose
 * fields are kept for the error to throw, and a CommandComplete, whose row count is kept.
 */
export class AnswerReader {
  /** The first column of the first row; null when it was SQL NULL or no row came. */
  value: Buffer | null = null;
  rows = 0;
  error: { code: string; message: string } | null = null;
  /** The row count of the statement's CommandComplete ("INSERT 0 1", "UPDATE 3", "SELECT 1"). */
  rowCount = 0;

  private readonly head = Buffer.alloc(5);
  private headFill = 0;
  private type = 0;
  /** Bytes of the current message's body not yet seen. */
  private left = 0;
  /** The DataRow prefix (column count, first column's length), then the value's bytes. */
  private readonly rowHead = Buffer.alloc(6);
  private rowHeadFill = 0;
  private valueFill = 0;
  /** The body of an ErrorResponse or CommandComplete, kept whole. */
  private kept: Buffer | null = null;
  private keptFill = 0;

  feed(piece: Uint8Array): void {
    let at = 0;
    while (at < piece.length) {
      if (this.headFill < 5) {
        const n = Math.min(5 - this.headFill, piece.length - at);
        this.head.set(piece.subarray(at, at + n), this.headFill);
        this.headFill += n;
        at += n;
        if (this.headFill === 5) this.begin();
        continue;
      }
      const n = Math.min(this.left, piece.length - at);
      this.body(piece.subarray(at, at + n));
      at += n;
      this.left -= n;
      if (this.left === 0) this.headFill = 0;
    }
  }

  private begin(): void {
    this.type = this.head[0]!;
    this.left = this.head.readInt32BE(1) - 4;
    this.rowHeadFill = 0;
    this.valueFill = 0;
    if ((this.type === 0x45 /* E */ && !this.error) || this.type === 0x43 /* C */) {
      this.kept = Buffer.alloc(this.left);
      this.keptFill = 0;
    }
    if (this.type === 0x44 /* D */) this.rows++;
    if (this.left === 0) this.end();
  }

  private body(part: Uint8Array): void {
    if (this.kept) {
      this.kept.set(part, this.keptFill);
      this.keptFill += part.length;
      if (this.keptFill === this.kept.length) this.end();
      return;
    }
    if (this.type !== 0x44 || this.rows !== 1) return;
    let at = 0;
    if (this.rowHeadFill < 6) {
      const n = Math.min(6 - this.rowHeadFill, part.length);
      this.rowHead.set(part.subarray(0, n), this.rowHeadFill);
      this.rowHeadFill += n;
      at = n;
      if (this.rowHeadFill < 6) return;
      const length = this.rowHead.readInt32BE(2);
      this.value = length < 0 ? null : Buffer.allocUnsafe(length);
    }
    if (!this.value || this.valueFill >= this.value.length) return;
    const n = Math.min(this.value.length - this.valueFill, part.length - at);
    this.value.set(part.subarray(at, at + n), this.valueFill);
    this.valueFill += n;
  }

  /** A kept message is whole: an error's fields are a code byte and a C string each, up to a zero byte. */
  private end(): void {
    const body = this.kept;
    this.kept = null;
    if (!body) return;
    if (this.type === 0x43) {
      const tag = body.toString('utf8', 0, Math.max(0, body.indexOf(0)));
      const count = /(\d+)$/.exec(tag);
      this.rowCount = count ? Number(count[1]) : 0;
      return;
    }
    const fields: Record<string, string> = {};
    let at = 0;
    while (at < body.length && body[at] !== 0) {
      const code = String.fromCharCode(body[at]!);
      const stop = body.indexOf(0, at + 1);
      fields[code] = body.toString('utf8', at + 1, stop < 0 ? body.length : stop);
      at = stop < 0 ? body.length : stop + 1;
    }
    this.error = { code: fields.C ?? '', message: fields.M ?? 'the database refused the statement' };
  }
}
