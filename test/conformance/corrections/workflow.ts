import type { Correction } from '../apply-corrections.js';

export const workflowCorrections: Correction[] = [];
