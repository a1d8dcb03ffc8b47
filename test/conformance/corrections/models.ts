import type { Correction } from '../apply-corrections.js';

export const modelsCorrections: Correction[] = [];
