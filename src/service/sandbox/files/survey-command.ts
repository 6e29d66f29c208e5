import { FIND_FIELDS, FIND_FORMAT, findRecord } from './find-records';
import { readableBy, SURVEY_MAX_FILE_BYTES } from './file-survey';
import type { FileSurvey, SurveyRoot } from './sandbox-files';
import { sandboxPath } from './sandbox-path';

/**
 * The shell text of a survey (GNU find and base64, as in every sandbox image). Arguments: the user whose
 * ids to print (empty: none), then `depth read path` for each root. Output, NUL-separated: `U uid gids`,
 * then an `E <find record>` per entry, and with `read` a `C path base64` per small file.
 * Any error (a folder it may not enter, say) fails the whole survey.
 */
export const SURVEY_SCRIPT = `user=$1; shift
if [ -n "$user" ]; then printf 'U\\0%s\\0%s\\0' "$(id -u "$user")" "$(id -G "$user")" || exit 1; fi
while [ $# -ge 3 ]; do
  depth=$1; read=$2; root=$3; shift 3
  [ -e "$root" ] || continue
  find -H "$root" -maxdepth "$depth" -printf 'E\\0${FIND_FORMAT}' || exit 1
  [ "$read" = 1 ] || continue
  find -H "$root" -maxdepth "$depth" -type f -size -${SURVEY_MAX_FILE_BYTES + 1}c -exec sh -c \\
    'for f; do printf "C\\0%s\\0" "$f" && base64 -w0 -- "$f" && printf "\\0" || exit 1; done' sh {} + || exit 1
done`;

/** The arguments SURVEY_SCRIPT takes for these roots; `owner` is the user whose ids it prints, if any. */
export function surveyArgs(roots: SurveyRoot[], owner: string | null): string[] {
  return [owner ?? '', ...roots.flatMap((root) => [String(root.depth), root.read ? '1' : '0', root.path])];
}

/** The roots with their paths checked and normalised. */
export function surveyRoots(roots: SurveyRoot[]): SurveyRoot[] {
  return roots.map((root) => ({ ...root, path: sandboxPath(root.path) }));
}

/**
 * The survey SURVEY_SCRIPT printed, or null when it cannot stand for what the sandbox user would see: the
 * output was cut, or (taken as root for `owner`) some entry is not readable by that user.
 */
export function parseSurvey(output: string, roots: SurveyRoot[], truncated: boolean): FileSurvey | null {
  if (truncated) return null;
  const survey: FileSurvey = { roots, entries: new Map(), contents: new Map() };
  const tokens = output.split('\0');
  let ids: { uid: number; gids: number[] } | null = null;
  for (let at = 0; at < tokens.length - 1;) {
    const tag = tokens[at];
    if (tag === 'U') {
      const gids = (tokens[at + 2] ?? '').split(' ').filter(Boolean).map(Number);
      ids = { uid: Number(tokens[at + 1]), gids };
      at += 3;
    } else if (tag === 'E') {
      const entry = findRecord(tokens.slice(at + 1, at + 1 + FIND_FIELDS));
      survey.entries.set(sandboxPath(entry.path), entry);
      at += 1 + FIND_FIELDS;
    } else if (tag === 'C') {
      survey.contents.set(sandboxPath(tokens[at + 1] ?? ''), Buffer.from(tokens[at + 2] ?? '', 'base64'));
      at += 3;
    } else {
      return null;
    }
  }
  if (ids && !readableBy(survey, ids.uid, ids.gids)) return null;
  return survey;
}
