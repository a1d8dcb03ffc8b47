/** Quotes an identifier that came from the dictionary (never from user text). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A parameterised statement under construction: text with $n placeholders and its values. */
export class SqlBuilder {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder. */
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
