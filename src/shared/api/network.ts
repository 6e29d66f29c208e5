import { z } from 'zod';
import { EgressEntry } from './settings';

/** One connection a gated sandbox asked its proxy for, and what the egress policy decided. */
export const NetworkLogEntry = z.object({
  host: z.string(),
  port: z.number().int(),
  allowed: z.boolean(),
  /** The rule that decided, e.g. `preset balanced`, `allow *.example.com`, `deny evil.test`, `loopback address`. */
  rule: z.string(),
  /** The address it was dialled at (or would have been); null when refused before DNS. */
  address: z.string().nullable(),
  at: z.string(),
  /** A refusal held open while the user could allow it (confirmation mode); a later entry says if it went through. */
  held: z.boolean().optional(),
});
export type NetworkLogEntry = z.infer<typeof NetworkLogEntry>;

/** GET /api/conversations/{id}/network-log. */
export const NetworkLog = z.object({ entries: z.array(NetworkLogEntry) });
export type NetworkLog = z.infer<typeof NetworkLog>;

/** POST /api/conversations/{id}/network-allow: allow a destination for this conversation, or always. */
export const NetworkAllowRequest = z.strictObject({
  /** `host`, `host:port`, `*.domain`, an address or a CIDR range. */
  entry: EgressEntry,
  scope: z.enum(['conversation', 'always']),
});
export type NetworkAllowRequest = z.infer<typeof NetworkAllowRequest>;
