/** Text files imported as strings (`?raw`), as Vite and Vitest load them: tool descriptions and prompts. */
declare module '*?raw' {
  const text: string;
  export default text;
}
