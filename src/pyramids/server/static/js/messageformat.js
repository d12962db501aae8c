// The message format of the shared catalogue (pyramids.texts), the same subset as the
// Python formatter src/pyramids/texts/format.py, whose docstring is the reference:
//   {name}                      a fact of the event's data (dotted paths: {tiles.0.at});
//                               null/true/false print as such, lists as [a, b]
//   {name, select, a {…} other {…}}   the branch named by the value as printed
//   {name, plural, =1 {…} other {…}}  exact =N branches only (a list counts its items)
//   {name, list[, and|space|plus|semicolon[, {item}]]}  items joined ("a, b and c" with
//                               the entry list.and); {item} sees {_}, {_index} and an
//                               object item's fields
//   {name, term, PREFIX}        the catalogue entry PREFIX.<value>
//   {name, number[, [+]N[%]]}   a number with N digits after the mark (0 by default),
//                               "+" before positives, "%" for a fraction as a percentage;
//                               the separators are the entries number.group, number.decimal
//                               and number.percent; a true minus; "–" for null
// No ICU quoting: apostrophes are plain text. formatMessage(text, args, lookup) throws
// an Error on a malformed message or a missing fact.

const JOINERS = { space: " ", plus: " + ", semicolon: "; " };
const NUMBER_STYLE = /^(\+?)(\d{0,2})(%?)$/;
const MINUS = "\u2212";
const cache = new Map();

function close(text, start) {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  throw new Error(`unclosed brace in ${text}`);
}

function partition(text, sep) {
  const i = text.indexOf(sep);
  return i < 0 ? [text, ""] : [text.slice(0, i), text.slice(i + 1)];
}

/** Parse a message into literal strings and placeholder objects (cached). */
export function parse(text) {
  if (cache.has(text)) return cache.get(text);
  const nodes = [];
  let literal = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "{") {
      const end = close(text, i);
      if (literal) nodes.push(literal);
      literal = "";
      nodes.push(placeholder(text.slice(i + 1, end)));
      i = end + 1;
      continue;
    }
    if (c === "}") throw new Error(`unopened brace in ${text}`);
    literal += c;
    i++;
  }
  if (literal) nodes.push(literal);
  cache.set(text, nodes);
  return nodes;
}

function placeholder(body) {
  let [name, rest] = partition(body, ",");
  name = name.trim();
  if (!name) throw new Error(`placeholder without a name: {${body}}`);
  if (!rest) return { name, type: "" };
  let kind;
  [kind, rest] = partition(rest, ",");
  kind = kind.trim();
  if (kind === "select" || kind === "plural") return { name, type: kind, branches: branches(rest) };
  if (kind === "list") {
    let [style, item] = partition(rest, ",");
    style = style.trim() || "and";
    if (style !== "and" && !(style in JOINERS)) throw new Error(`unknown list style ${style}`);
    item = item.trim();
    if (item && !(item.startsWith("{") && close(item, 0) === item.length - 1)) {
      throw new Error(`list item must be one braced sub-message: ${item}`);
    }
    return { name, type: kind, style, item: item ? parse(item.slice(1, -1)) : null };
  }
  if (kind === "number") {
    const style = rest.trim();
    if (!NUMBER_STYLE.test(style)) throw new Error(`bad number style ${style}`);
    return { name, type: kind, style };
  }
  if (kind === "term") {
    if (!rest.trim()) throw new Error(`term without a prefix: {${body}}`);
    return { name, type: kind, style: rest.trim() };
  }
  throw new Error(`unknown placeholder type ${kind}`);
}

function branches(text) {
  const out = new Map();
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i === text.length) return out;
    const start = i;
    while (i < text.length && !/\s/.test(text[i]) && text[i] !== "{") i++;
    const selector = text.slice(start, i);
    while (i < text.length && /\s/.test(text[i])) i++;
    if (!selector || i === text.length || text[i] !== "{") throw new Error(`bad branches ${text}`);
    const end = close(text, i);
    out.set(selector, parse(text.slice(i + 1, end)));
    i = end + 1;
  }
}

/** A fact as text: null/true/false spelt so, lists as [a, b], the rest as String. */
export function show(value) {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return `[${value.map(show).join(", ")}]`;
  return String(value);
}

function fact(args, name) {
  const [head, ...path] = name.split(".");
  if (!(head in args)) throw new Error(`no fact ${head}`);
  let value = args[head];
  for (const step of path) {
    const next = Array.isArray(value) ? value[Number(step)] : value?.[step];
    if (next === undefined) throw new Error(`no fact ${name}`);
    value = next;
  }
  return value;
}

function entry(lookup, key) {
  const text = lookup(key);
  if (text === undefined || text === null) throw new Error(`no catalogue entry ${key}`);
  return text;
}

function branch(node, selector) {
  if (node.branches.has(selector)) return node.branches.get(selector);
  if (node.branches.has("other")) return node.branches.get("other");
  throw new Error(`no branch ${selector} nor other for ${node.name}`);
}

function list(node, value, args, lookup) {
  if (!Array.isArray(value)) throw new Error(`fact ${node.name} is not a list`);
  const items = value.map((item, index) => {
    if (!node.item) return show(item);
    const scope = { ...args, _: item, _index: index };
    if (item && typeof item === "object" && !Array.isArray(item)) Object.assign(scope, item);
    return render(node.item, scope, lookup);
  });
  if (node.style in JOINERS) return items.join(JOINERS[node.style]);
  if (items.length < 2) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${entry(lookup, "list.and")} ${items[items.length - 1]}`;
}

/** `x` (>= 0) with `digits` after the point, rounded to the nearest and ties to even on the
 * exact binary value, as Python's f"{x:.2f}" does (toFixed rounds ties up). */
function fixed(x, digits) {
  if (x >= 1e21) return String(x);
  const wide = x.toFixed(Math.min(100, digits + 30));
  const point = wide.indexOf(".");
  if (!/^50*$/.test(wide.slice(point + 1 + digits))) return x.toFixed(digits);
  let n = BigInt(wide.slice(0, point) + wide.slice(point + 1, point + 1 + digits));
  if (n % 2n === 1n) n += 1n;
  const s = n.toString().padStart(digits + 1, "0");
  return digits ? `${s.slice(0, -digits)}.${s.slice(-digits)}` : s;
}

/** `value` with `digits` after the `decimal` mark and its thousands joined by `group`
 * ("1,234.5"): a true minus, "+" before positives when `sign`, no sign on a value that
 * rounds to zero, "–" for null. Python's number_text (pyramids.texts.format) says the same. */
export function numberText(value, digits = 0, { sign = false, group = ",", decimal = "." } = {}) {
  if (value === null || value === undefined) return "–";
  if (!Number.isFinite(value)) return Number.isNaN(value) ? "nan" : value > 0 ? "inf" : `${MINUS}inf`;
  const text = fixed(Math.abs(value), digits);
  let [whole, fraction] = text.split(".");
  const head = whole.length % 3 || 3;
  const parts = [whole.slice(0, head)];
  for (let i = head; i < whole.length; i += 3) parts.push(whole.slice(i, i + 3));
  whole = parts.join(group);
  const out = fraction ? `${whole}${decimal}${fraction}` : whole;
  if (/^[0.]*$/.test(text)) return out;
  if (value < 0) return MINUS + out;
  return sign ? `+${out}` : out;
}

function number(style, value, lookup) {
  const [, plus, digits, percent] = NUMBER_STYLE.exec(style);
  if (value !== null && typeof value !== "number") throw new Error(`not a number: ${show(value)}`);
  const scaled = value === null ? null : percent ? 100 * value : value;
  const text = numberText(scaled, Number(digits || 0), {
    sign: Boolean(plus),
    group: entry(lookup, "number.group"),
    decimal: entry(lookup, "number.decimal"),
  });
  if (!percent || value === null) return text;
  return formatMessage(entry(lookup, "number.percent"), { n: text }, lookup);
}

/** Fill a parsed message with `args`; terms and the list word come from `lookup(key)`. */
export function render(message, args, lookup) {
  let out = "";
  for (const node of message) {
    if (typeof node === "string") {
      out += node;
      continue;
    }
    const value = fact(args, node.name);
    if (node.type === "") out += show(value);
    else if (node.type === "select") out += render(branch(node, show(value)), args, lookup);
    else if (node.type === "plural") {
      const n = Array.isArray(value) ? value.length : Number(value);
      out += render(branch(node, `=${n}`), args, lookup);
    } else if (node.type === "list") out += list(node, value, args, lookup);
    else if (node.type === "number") out += number(node.style, value, lookup);
    else out += formatMessage(entry(lookup, `${node.style}.${show(value)}`), args, lookup);
  }
  return out;
}

/** Parse and fill one message of the catalogue. */
export function formatMessage(text, args, lookup) {
  return render(parse(text), args, lookup);
}
