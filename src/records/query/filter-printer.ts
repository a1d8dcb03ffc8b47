/**
 * Prints a FilterNode back to `$filter` text (for logs, and for round-trip tests):
 * parseFilter(printFilter(node)) is deep-equal to node for every tree parseFilter can produce.
 * Keywords come out lower-case; parentheses only where precedence or associativity needs them.
 */
import type { FilterNode, Operand } from './filter-ast.js';

export function printOperand(op: Operand): string {
  switch (op.kind) {
    case 'column':
      return op.name;
    case 'string':
      return `'${op.value.replace(/'/g, "''")}'`;
    case 'number':
      return op.raw;
    case 'boolean':
      return op.value ? 'true' : 'false';
    case 'null':
      return 'null';
    case 'call':
      return `${op.name}(${printOperand(op.arg)})`;
  }
}

const isBinary = (n: FilterNode): boolean => n.kind === 'and' || n.kind === 'or';

export function printFilter(node: FilterNode): string {
  switch (node.kind) {
    case 'or': {
      // or is the loosest level: only a right-hand or needs parentheses (left-associativity).
      const right = node.right.kind === 'or' ? `(${printFilter(node.right)})` : printFilter(node.right);
      return `${printFilter(node.left)} or ${right}`;
    }
    case 'and': {
      const left = node.left.kind === 'or' ? `(${printFilter(node.left)})` : printFilter(node.left);
      const right = isBinary(node.right) ? `(${printFilter(node.right)})` : printFilter(node.right);
      return `${left} and ${right}`;
    }
    case 'not':
      return isBinary(node.expr) ? `not (${printFilter(node.expr)})` : `not ${printFilter(node.expr)}`;
    case 'compare':
      return `${printOperand(node.left)} ${node.op} ${printOperand(node.right)}`;
    case 'in':
      return `${printOperand(node.left)} in (${node.values.map(printOperand).join(', ')})`;
    case 'method':
      return `${node.name}(${printOperand(node.target)}, ${printOperand(node.value)})`;
  }
}
