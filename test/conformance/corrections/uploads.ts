import type { Correction } from '../apply-corrections.js';

export const uploadsCorrections: Correction[] = [];
