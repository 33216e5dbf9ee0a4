/**
 * The live feed of new blocks: one WebSocket to `/ws/v3/<KEY>` with an `eth_subscribe newHeads`,
 * opened when the page starts and gone with it (the chain does no inspector work without a page).
 * Owns the socket, its subscription and reconnecting after a drop; what a head means is the ring's.
 */

/** A `newHeads` notification, as the wire has it. */
export interface WireHead {
  readonly number: string
  readonly hash: string
  readonly timestamp: string
  readonly gasUsed: string
  readonly gasLimit: string
  readonly baseFeePerGas?: string
  readonly transactionsRoot: string
}

const RECONNECT_MS = 1000

/** Calls `onHead` for each new block and `onConnect` each time the subscription starts. */
export class HeadFeed {
  readonly #url: string
  readonly #onHead: (head: WireHead) => void
  readonly #onConnect: () => void
  #socket: WebSocket | undefined
  #stopped = false

  constructor(url: string, onHead: (head: WireHead) => void, onConnect: () => void) {
    this.#url = url
    this.#onHead = onHead
    this.#onConnect = onConnect
  }

  start(): void {
    const socket = new WebSocket(this.#url)
    this.#socket = socket
    socket.onopen = () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; params?: { result: WireHead } }
      if (message.id === 1) this.#onConnect()
      else if (message.params !== undefined) this.#onHead(message.params.result)
    }
    socket.onclose = () => {
      if (!this.#stopped) setTimeout(() => this.start(), RECONNECT_MS)
    }
  }

  stop(): void {
    this.#stopped = true
    this.#socket?.close()
  }
}
