// The contract between the transport (src/server/) and whoever answers JSON-RPC (src/rpc/).
// The server owns sockets, paths, keys and limits; the handler owns every JSON-RPC envelope.
// Nothing here knows about the chain: a handler is just "raw body in, raw body out".
export {};
//# sourceMappingURL=types.js.map