/** How blocks get mined. */
export const MiningModes = ['auto', 'interval', 'manual'];
/** Block tags as a client names them. */
export const BlockTags = ['latest', 'earliest', 'pending', 'safe', 'finalized'];
//# sourceMappingURL=types.js.map