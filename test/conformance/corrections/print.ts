import type { Correction } from '../apply-corrections.js';

export const printCorrections: Correction[] = [];
