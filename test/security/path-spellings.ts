/** `%XX` of a character, upper- or lower-case hex. */
function escape(char: string, lower = false): string {
  const hex = char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
  return `%${lower ? hex.toLowerCase() : hex}`;
}

/** The path with its last `/` replaced by `insert` (e.g. `/./`), or `%2F`. */
function beforeLast(path: string, insert: string): string {
  const at = path.lastIndexOf('/');
  return `${path.slice(0, at)}${insert}${path.slice(at + 1)}`;
}

/**
 * Other spellings of a request path that a lax router or key check could take for the same route:
 * letter case, duplicate and trailing slashes, percent-encoding (of letters, dots and slashes) and dot
 * segments. None of them may reach the route's handler without a key.
 */
export function pathSpellings(path: string): string[] {
  const firstLetter = /[a-z]/;
  const spellings = [
    path.toUpperCase(),
    path.replace(firstLetter, (c) => c.toUpperCase()),
    path.replace(/[^/]+$/, (last) => last.toUpperCase()),
    `/${path}`,
    path.replaceAll('/', '//'),
    `${path}/`,
    `${path}//`,
    beforeLast(path, '%2F'),
    beforeLast(path, '%2f'),
    `%2F${path.slice(1)}`,
    path.replace(firstLetter, (c) => escape(c)),
    path.replace(firstLetter, (c) => escape(c, true)),
    path.replace(/[a-z]/g, (c) => escape(c)),
    `/.${path}`,
    beforeLast(path, '/./'),
    `/x/..${path}`,
    beforeLast(path, '/x/../'),
    beforeLast(path, '/%2e/'),
    `/x/%2E%2E${path}`,
    `/x/%2e%2e%2F..${path}`,
    `${path}/.`,
    `${path}/x/..`,
    `${path.toUpperCase()}/x/..//`,
  ];
  return [...new Set([path, ...spellings])];
}
