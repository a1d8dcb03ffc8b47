import type { Correction } from '../apply-corrections.js';

export const authCorrections: Correction[] = [];
