/** Text from the service in which `backticks` mark commands and names: those parts are shown as code. */
export function TextWithCode({ text }: { text: string }) {
  const parts = text.split('`');
  // An odd number of parts means the backticks pair up; otherwise show the text as it came.
  if (parts.length % 2 === 0) return text;
  return parts.map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
}
