/**
 * The one mapping between Dockhand's events and the V0 wire event (api-contract §5). `toV0` is what V0
 * clients get (REST pages, SSE, socket.io) and what V1 wraps; `fromV0` reads events stored in the V0
 * format by earlier versions (and those producers still build). An event whose V0 form would not come back
 * unchanged keeps the stored form, so nothing stored is lost and old conversations replay as they were.
 */
export { fromV0 } from './from-v0';
export { toNewV0, toV0 } from './to-v0';
export { callFromV0, camel, commandMetadataFromV0, metricsFromV0, rekeyed, withoutNulls } from './v0-fields';
