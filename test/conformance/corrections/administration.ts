import type { Correction } from '../apply-corrections.js';

export const administrationCorrections: Correction[] = [];
