import type { Correction } from '../apply-corrections.js';

export const windowsCorrections: Correction[] = [];
