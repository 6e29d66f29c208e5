/** How good or bad a state is; notices and badges are coloured by it. */
export type Tone = 'ok' | 'warning' | 'error';
