export * from './filter-ast.js';
export { parseFilter } from './filter-parser.js';
export { printFilter, printOperand } from './filter-printer.js';
export { parseOrderBy, type OrderItem } from './orderby-parser.js';
export { parseSelect } from './select-parser.js';
export { parseExpand, type ExpandItem, type ExpandOptions } from './expand-parser.js';
export { parseContext } from './context-parser.js';
export { parseTop, parseSkip } from './paging.js';
export { MAX_QUERY_LENGTH, MAX_NESTING_DEPTH } from './common.js';
