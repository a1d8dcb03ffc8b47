import type { Correction } from '../apply-corrections.js';

export const processesCorrections: Correction[] = [];
