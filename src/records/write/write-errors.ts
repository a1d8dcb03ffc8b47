import { ApiError } from '../../errors.js';

/** Validation failures of writes: 400 with the original's title and a detail naming the column. */
export const validationError = (detail: string): ApiError => new ApiError(400, 'Validation Errors', detail);
