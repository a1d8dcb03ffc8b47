import type { Tx } from '../types.js';

export interface Migration {
  version: number;
  name: string;
  up(tx: Tx): Promise<void>;
}
