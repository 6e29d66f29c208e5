import { z } from 'zod';

/** How many items a search would find. */
export const Count = z.number().int();

/** Names, as a plain list (models, agents, analyzers, installations). */
export const NameList = z.array(z.string());

/** `true`: the change was made. */
export const TrueBody = z.literal(true);
