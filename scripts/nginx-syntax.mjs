// A small parser and printer for nginx's configuration syntax (scripts/nginx.mjs re-exports them).
// Directives are `name args… ;` or `name args… { directives }`; `#` starts a comment (dropped);
// quoted arguments keep their quotes, so printing gives back what nginx reads.

/** @typedef {{ name: string, args: string[], block?: Directive[] }} Directive */

function tokenize(text) {
  const tokens = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') {
        i++;
      }
    } else if (c === '{' || c === '}' || c === ';') {
      tokens.push(c);
      i++;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) {
        j += text[j] === '\\' ? 2 : 1;
      }
      if (j >= text.length) {
        throw new Error(`nginx config: unterminated string at offset ${i}`);
      }
      tokens.push(text.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && !/[\s{};#]/.test(text[j])) {
        j++;
      }
      tokens.push(text.slice(i, j));
      i = j;
    }
  }
  return tokens;
}

/** @returns {Directive[]} */
export function parseNginx(text) {
  const tokens = tokenize(text);
  let at = 0;
  const parseBlock = (nested) => {
    const directives = [];
    while (at < tokens.length) {
      if (tokens[at] === '}') {
        if (!nested) {
          throw new Error('nginx config: unexpected "}"');
        }
        at++;
        return directives;
      }
      const words = [];
      while (at < tokens.length && !['{', '}', ';'].includes(tokens[at])) {
        words.push(tokens[at++]);
      }
      const end = tokens[at++];
      if (words.length === 0 || end === undefined || end === '}') {
        throw new Error(`nginx config: a directive is not terminated near "${words.join(' ')}"`);
      }
      const [name, ...args] = words;
      directives.push(end === '{' ? { name, args, block: parseBlock(true) } : { name, args });
    }
    if (nested) {
      throw new Error('nginx config: missing "}"');
    }
    return directives;
  };
  return parseBlock(false);
}

/** @param {Directive[]} directives */
export function printNginx(directives, depth = 0) {
  const pad = '    '.repeat(depth);
  return directives
    .map((d) => {
      const head = [d.name, ...d.args].join(' ');
      return d.block ? `${pad}${head} {\n${printNginx(d.block, depth + 1)}${pad}}\n` : `${pad}${head};\n`;
    })
    .join('');
}
