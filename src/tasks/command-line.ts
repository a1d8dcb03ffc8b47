/**
 * Splits an AD_Task OS_Command into the program and its arguments, as a shell would split words:
 * whitespace separates, single or double quotes keep spaces inside one argument. Nothing else of a
 * shell applies (no variables, globs, pipes or redirections): the words go to execFile as they are.
 * Null when the command is empty or a quote is not closed.
 */
export function splitCommand(command: string): { file: string; args: string[] } | null {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | null = null;
  for (const ch of command) {
    if (quote) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) return null;
  if (inWord) words.push(word);
  if (!words.length) return null;
  return { file: words[0]!, args: words.slice(1) };
}
